package cliflag

import (
	"flag"
	"os"
	"strings"

	"github.com/memprof/memprof/workflow"
)

// Provenance are --machine and --commit, of the commands that write
// results: which runner measured and which commit, recorded as
// env.machine and env.commit so that results of several runners and runs
// can be told apart (report --from a.json --from b.json, compare
// --base-commit).
type Provenance struct {
	machine, commit string
}

func (p *Provenance) Add(fs *flag.FlagSet) {
	fs.StringVar(&p.machine, "machine", "", "name the runner in the results (env.machine) as `name` (default the host name)")
	fs.StringVar(&p.commit, "commit", "", "record `sha` as the commit measured (env.commit; default $GITHUB_SHA, else the binary's VCS revision)")
}

// options sets the flags in o: --commit, else $GITHUB_SHA; left empty,
// the workflow records the host name and the binary's VCS revision.
func (p *Provenance) Options(o *workflow.Options) {
	o.Machine = strings.TrimSpace(p.machine)
	o.Commit = strings.TrimSpace(p.commit)
	if o.Commit == "" {
		o.Commit = strings.TrimSpace(os.Getenv("GITHUB_SHA"))
	}
}
