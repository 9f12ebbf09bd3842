// Package heapscan reads Go heap profiles and answers per-object questions
// of them: how many objects and bytes each function, site, stack or rule
// keeps, what slot sizes the allocator used, and what changed between two
// profiles. It knows nothing of any crypto library: the memprof engine uses
// it to attribute its own profiles by handing it the constructor's frame.
package heapscan
