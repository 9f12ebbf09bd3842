package memprof

import (
	"go/version"
	"runtime"
	"runtime/debug"
	"strings"

	"github.com/memprof/memprof/measure"
)

// greenTeaDefault is the first Go version whose default collector is
// Green Tea.
const greenTeaDefault = "go1.26"

// collector says which garbage collector a binary built by goVersion
// with the build settings settings runs: the last of greenteagc and
// nogreenteagc that its GOEXPERIMENT names, else the default of its Go
// version (Green Tea from Go 1.26; a development version is taken as
// the newest).
func collector(goVersion string, settings []debug.BuildSetting) measure.Collector {
	c := measure.NoGreenTeaGC
	if v := version.Lang(strings.Fields(goVersion + " ")[0]); v == "" || version.Compare(v, greenTeaDefault) >= 0 {
		c = measure.GreenTeaGC
	}
	for _, s := range settings {
		if s.Key != "GOEXPERIMENT" {
			continue
		}
		for _, exp := range strings.Split(s.Value, ",") {
			switch measure.Collector(strings.TrimSpace(exp)) {
			case measure.GreenTeaGC:
				c = measure.GreenTeaGC
			case measure.NoGreenTeaGC:
				c = measure.NoGreenTeaGC
			}
		}
	}
	return c
}

// currentCollector is the collector this binary runs.
func currentCollector() measure.Collector {
	var settings []debug.BuildSetting
	if bi, ok := debug.ReadBuildInfo(); ok {
		settings = bi.Settings
	}
	return collector(runtime.Version(), settings)
}
