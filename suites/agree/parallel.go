package agree

import (
	"runtime"
	"sync"
)

// PerLib runs f for every library, each on its own goroutine, and returns
// the results in the order of libs: the libraries of a check work at the
// same time, and their results are compared after, in a fixed order.
func PerLib[L, T any](libs []L, f func(L) T) []T {
	out := make([]T, len(libs))
	var wg sync.WaitGroup
	for i, l := range libs {
		wg.Go(func() { out[i] = f(l) })
	}
	wg.Wait()
	return out
}

// Each runs f for 0 to n-1, as many at once as there are processors; every
// f must write only its own item's results.
func Each(n int, f func(i int)) {
	next := make(chan int, n)
	for i := range n {
		next <- i
	}
	close(next)
	var wg sync.WaitGroup
	for range min(n, runtime.GOMAXPROCS(0)) {
		wg.Go(func() {
			for i := range next {
				f(i)
			}
		})
	}
	wg.Wait()
}
