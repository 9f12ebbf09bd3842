package memprof

import "fmt"

// CheckMemory refuses a measurement whose estimated memory, n instances of
// perInstance bytes each (the holder included), exceeds the memory this
// machine has available. It returns nil when the available memory cannot
// be read.
func CheckMemory(n int, perInstance uint64) error {
	if n <= 0 {
		return fmt.Errorf("N must be positive, got %d", n)
	}
	avail := availableMemory()
	if avail == 0 {
		return nil
	}
	// One pass at a time is alive; the holder takes 16 B per instance.
	est := float64(n) * float64(perInstance+16)
	if est > float64(avail) {
		return fmt.Errorf("refusing N=%d: estimated %s for the instances exceeds the %s of memory available", n, FormatBytes(est), FormatBytes(float64(avail)))
	}
	return nil
}

// FormatBytes renders a byte count with a binary unit (B, KiB, MiB, GiB).
func FormatBytes(b float64) string {
	units := []string{"B", "KiB", "MiB", "GiB", "TiB"}
	i := 0
	for b >= 1024 && i < len(units)-1 {
		b /= 1024
		i++
	}
	if i == 0 {
		return fmt.Sprintf("%.0f B", b)
	}
	return fmt.Sprintf("%.1f %s", b, units[i])
}
