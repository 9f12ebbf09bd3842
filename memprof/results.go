package memprof

import "github.com/memprof/memprof/model"

// Result is what Measure returns for one case: bytes and objects per
// instance, allocation sites, and the whole-footprint readings (see
// model.Measurement for each figure). It is a model.Measurement: the
// results file embeds it in its rows, beside the case's key.
type Result = model.Measurement

// Site is one allocation site inside the instance constructor.
type Site = model.Site
