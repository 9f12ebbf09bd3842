package main

import (
	"os"
	"path/filepath"
	"strconv"
	"strings"
)

// treeRSS is the resident memory of this process and every process below
// it (the measuring children), in bytes, from /proc/<pid>/stat's rss field
// (pages); ok is false where /proc cannot be read (not Linux).
func treeRSS() (uint64, bool) {
	pages, ok := treePages("/proc", os.Getpid())
	return pages * uint64(os.Getpagesize()), ok
}

// treePages sums the resident pages of process self and of every process
// below it, read from the /proc-shaped directory root.
func treePages(root string, self int) (uint64, bool) {
	dirs, err := os.ReadDir(root)
	if err != nil {
		return 0, false
	}
	parent, rss := map[int]int{}, map[int]uint64{}
	for _, d := range dirs {
		pid, err := strconv.Atoi(d.Name())
		if err != nil {
			continue
		}
		ppid, pages, ok := procStat(root, pid)
		if !ok {
			continue // gone since the listing
		}
		parent[pid], rss[pid] = ppid, pages
	}
	if _, ok := rss[self]; !ok {
		return 0, false
	}
	var total uint64
	for pid, pages := range rss {
		for p, hops := pid, 0; p > 0 && hops <= len(rss); p, hops = parent[p], hops+1 {
			if p == self {
				total += pages
				break
			}
		}
	}
	return total, true
}

// procStat reads the parent and the resident pages of process pid from
// root/<pid>/stat: the fields after the command's closing parenthesis
// (which may hold spaces) are state, ppid, ... and rss is the 24th field.
func procStat(root string, pid int) (ppid int, pages uint64, ok bool) {
	b, err := os.ReadFile(filepath.Join(root, strconv.Itoa(pid), "stat"))
	if err != nil {
		return 0, 0, false
	}
	s := string(b)
	f := strings.Fields(s[strings.LastIndexByte(s, ')')+1:])
	// f[0] is field 3 (state), so field k is f[k-3].
	if len(f) < 22 {
		return 0, 0, false
	}
	ppid, err1 := strconv.Atoi(f[1])
	pages, err2 := strconv.ParseUint(f[21], 10, 64)
	return ppid, pages, err1 == nil && err2 == nil
}
