// Package heapscan reads Go heap profiles and answers per-object questions
// of them: how many objects and bytes each function, site, stack or rule
// keeps, what slot sizes the allocator used, how far a sampled profile's
// figures can be trusted, and what changed between two profiles. It knows
// nothing of any crypto library: the memprof engine uses it to attribute
// its own profiles by handing it the constructor's frame, and the
// "memprof heapscan" command uses it on any profile.
//
// The pipeline:
//
//  1. Read (Read, ReadFile, Fetch, Open). A profile is untrusted input. Its
//     bytes are inflated when gzip-compressed, in a second goroutine, and
//     counted: past ReadOptions.MaxBytes (decompressed) reading stops with
//     an error wrapping ErrTooLarge. Protobuf profiles are decoded as a
//     stream with protowire, one top-level field at a time: samples come
//     before the string table that names their frames, so each sample's
//     values and location IDs are kept as the varints they are, and
//     resolved once the tables have arrived. A field that claims more
//     bytes than remain of the input or of MaxBytes is refused at its
//     tag. The legacy text format is read line by line, lines of the same
//     stack added together as they are read, its debug=1 symbol comments
//     naming the frames. The decoded data is counted against MaxBytes too.
//     When ReadOptions.Model is set, the profile is read with
//     github.com/google/pprof/profile and converted (FromProfile), after
//     the streaming decoder's checks. Both give the same Heap; a damaged
//     input is an error naming what is wrong ("truncated profile",
//     "malformed profile", "corrupt gzip data", "not a heap profile").
//  2. Summarize (Heap.Summarize, or Summarize on a parsed *profile.Profile):
//     per-location facts (the first non-runtime frame, focus and ignore
//     matches, the first matching rule) are computed once, then each sample
//     is added to its row. Heap.SummarizeEach makes several summaries of
//     one profile (other focus, grouping or sample kind each) in one pass,
//     each sample decoded once: the memprof engine takes its instances and
//     its holder that way. Rows carry objects, bytes, distinct sizes (the
//     "bytes" label) and, for a sampled profile, the number of objects the
//     runtime actually sampled, from which the relative error follows.
//     The summary says what its figures are: a delta profile's net sums,
//     a profile without object counts, one without a sampling error to
//     estimate (Notes, and the Summary's BytesPerObject, RelError and
//     Sampled, which say whether each is known).
//  3. Compare (Diff) two summaries, and trim (Summary.Top).
//  4. Write JSON (Summary.WriteJSON, schema memprof.heapscan/v1), row by
//     row; the CLI renders tables, Markdown and CSV itself.
//
// A Heap owns compact copies of what it needs (about the size of the
// uncompressed samples); a Summary owns its rows. Neither retains the
// reader or the pprof profile it came from.
package heapscan
