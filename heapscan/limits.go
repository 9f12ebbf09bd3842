package heapscan

import "strconv"

// MaxLocations and MaxSamples bound what the streaming readers keep of a
// profile: its first MaxLocations distinct locations (program counters)
// and MaxSamples distinct samples (stacks, in the text format). A profile
// that has more, a million distinct stacks say, is not refused and not
// cut: what lies beyond is added up in samples whose one frame is
// OverLimitFrame, and the Heap's Notes say how much, so that totals stay
// exact while the memory stays bounded (each location kept costs about
// 150 bytes, each sample about 100, before grouping).
const (
	MaxLocations = 1 << 17
	MaxSamples   = 1 << 17
)

// OverLimitFrame is the frame of the samples that hold what a profile
// has beyond MaxLocations and MaxSamples: a row of its own when grouping
// by function, site or stack.
var OverLimitFrame = "(beyond heapscan's limits of " + strconv.Itoa(MaxLocations) + " locations and " + strconv.Itoa(MaxSamples) + " stacks)"

// overLimitNote says what the samples of OverLimitFrame hold.
func overLimitNote(lines int64, what string) string {
	return "the profile has more distinct locations or stacks than heapscan keeps (" + strconv.Itoa(MaxLocations) + " and " +
		strconv.Itoa(MaxSamples) + "): " + strconv.FormatInt(lines, 10) + " " + what + " past them are counted in the row " +
		OverLimitFrame + ", not by their own frames; the totals are exact"
}

// retainedBudget is what the decoded data of a profile read with the
// byte limit maxBytes may retain (the streaming readers count it as they
// read, a decoded profile over it is refused): a fifth of the limit, 102
// MiB at the default, so that reading and grouping any profile up to the
// limit stays under 300 MB; and never less than minRetained, what a
// profile at MaxLocations and MaxSamples keeps, so that a lower limit
// does not refuse what the caps would keep.
func retainedBudget(maxBytes int64) int64 { return max(maxBytes/5, minRetained) }

// minRetained is the least retainedBudget: 64 MiB.
const minRetained = 64 << 20
