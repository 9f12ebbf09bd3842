package main

import (
	"bytes"
	"fmt"
	"os"
	"context"
	"runtime/metrics"
	"runtime"
	"runtime/pprof"
	"time"

	"github.com/memprof/memprof/cmd/memprof/internal/gatereport"
	"github.com/memprof/memprof/cmd/memprof/internal/report"
	"github.com/memprof/memprof/export"
	"github.com/memprof/memprof/gate"
	"github.com/memprof/memprof/model"
)

type peakCtx struct {
	context.Context
	max uint64
	n   int
}

func (c *peakCtx) Err() error {
	c.n++
	if c.n%64 != 0 {
		return nil
	}
	s := []metrics.Sample{{Name: "/memory/classes/heap/objects:bytes"}}
	metrics.Read(s)
	if v := s[0].Value.Uint64(); v > c.max*11/10 {
		c.max = v
		f, _ := os.Create("/tmp/i20b/peak.prof")
		pprof.Lookup("heap").WriteTo(f, 0)
		f.Close()
	}
	return nil
}

func main() {
	runtime.MemProfileRate = 64 << 10
	what, path := os.Args[1], os.Args[2]
	if what == "budgets" {
		f, err := gate.ReadFile(path)
		runtime.GC()
		var m runtime.MemStats
		runtime.ReadMemStats(&m)
		fmt.Println("budgets", len(f.Budgets), err, "heap", m.HeapAlloc>>20, "MiB; total alloc", m.TotalAlloc>>20, "MiB; sys", m.Sys>>20)
		return
	}
	rs, err := model.ResultsReader{}.ReadFile(path)
	if err != nil {
		panic(err)
	}
	pf, _ := os.Create("/tmp/i20b/" + what + ".prof")
	pprof.StartCPUProfile(pf)
	defer pprof.StopCPUProfile()
	t := time.Now()
	switch what {
	case "check", "update":
		f, err := gate.ReadFile(os.Args[3])
		if err != nil {
			panic(err)
		}
		rep := gate.Check(f, rs, gate.CheckOptions{})
		fmt.Println("check", time.Since(t))
		if what == "update" {
			_, err := gate.Update(f, rep, 1.2)
			fmt.Println("update", time.Since(t), err)
		} else {
			var b bytes.Buffer
			gatereport.Check(&b, rep)
			fmt.Println("render", time.Since(t))
		}
	case "compare":
		c, err := gate.Compare(rs, rs, gate.CompareOptions{})
		fmt.Println("compare", time.Since(t), err)
		var b bytes.Buffer
		gatereport.Table(&b, c)
		fmt.Println("render", time.Since(t))
	case "report":
		os.RemoveAll("/tmp/i20b/zzrev")
		ctx := &peakCtx{Context: context.Background()}
		_, err := report.WriteContext(ctx, "/tmp/i20b/zzrev", rs, report.Options{})
		fmt.Println("report", time.Since(t), err, "peak objects", ctx.max>>20, "MiB")
	case "read":
		runtime.GC()
		var m runtime.MemStats
		runtime.ReadMemStats(&m)
		fmt.Println("heap after read", m.HeapAlloc>>20, "MiB; total alloc", m.TotalAlloc>>20, "MiB; sys", m.Sys>>20)
		runtime.KeepAlive(rs)
	case "export":
		var b bytes.Buffer
		export.Write(&b, rs, export.Format(os.Args[3]))
		fmt.Println("export", time.Since(t))
	}
}
