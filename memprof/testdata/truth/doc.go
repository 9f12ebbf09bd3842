// Package truth is a module of its own that measures, through memprof's
// public API only, types built so that what their instances keep is known
// from their construction: the ground truth of each class of allocation
// the engine must get right (memprof's TestConstructedTruth builds and
// runs its tests). Its expectations come from unsafe.Sizeof, the
// allocator's size classes (runtime.MemStats.BySize), the runtime's page,
// and, for a channel, what the runtime's own accounting says one
// allocates; never from a measured figure.
package truth
