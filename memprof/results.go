package memprof

import "github.com/memprof/memprof/measure"

// Result is what Measure returns for one case: bytes and objects per
// instance, allocation sites, and the whole-footprint readings (see
// measure.Measurement for each figure). It is a measure.Measurement: the
// results file embeds it in its rows, beside the case's key.
type Result = measure.Measurement

// Site is one allocation site inside the instance constructor.
type Site = measure.Site
