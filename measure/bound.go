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

// SweepPointResolution is how far a sweep point's bytes (the total Go
// heap its N instances keep) can be from the truth: the live heap's
// tolerance for the runtime's own churn between the readings, with one
// thread's records (liveTolerance(1)).
const SweepPointResolution = LiveSlackBytes + RuntimePageBytes

// LiveSlackBytes is how far the sites' account of a build's live heap can
// be from it and still account for it, with no thread started meanwhile:
// the records the runtime allocates and frees for itself between the
// readings (the engine's liveTolerance).
const LiveSlackBytes = 2 << 10
