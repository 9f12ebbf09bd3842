package measure

// The runtime's units the engine's readings are coarse by, which the
// engine (memprof) measures with and the reader bounds resolutions by:
// one definition for both, so that a file the engine writes is never
// refused for a resolution it could write.
const (
	// RuntimePageBytes is the Go runtime's page size (runtime.pageSize),
	// the unit in which it allocates spans: the scan figure's resolution
	// allows one page of the runtime's own small objects, which come and
	// go between readings.
	RuntimePageBytes = 8 << 10
	// OffheapChunkBytes is the size of the chunks in which the runtime
	// maps its memory outside the heap (runtime.persistentChunkSize).
	OffheapChunkBytes = 256 << 10
)

