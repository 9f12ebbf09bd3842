package vocab

import (
	"strconv"
	"strings"
	"unicode/utf8"
)

// The one place that suggests what a near miss meant: an unknown command
// (instanses), flag (-fromat) or value (--type Signatur, --lib blts)
// gets "did you mean" the nearest valid name, by the Damerau-Levenshtein
// distance (an edit is an insertion, a deletion, a substitution or the
// transposition of two neighbours), ignoring case.

// Nearest returns the name of valid nearest to v, if one is near enough
// to be what was meant: at most a third of v's letters (at least one)
// edited, and nearer than any other name.
func Nearest(v string, valid []string) (string, bool) {
	best, bestD, tie := "", -1, false
	for _, c := range valid {
		d := editDistance(strings.ToLower(v), strings.ToLower(c))
		switch {
		case bestD < 0 || d < bestD:
			best, bestD, tie = c, d, false
		case d == bestD:
			tie = true
		}
	}
	limit := max(1, utf8.RuneCountInString(v)/3)
	if bestD < 0 || bestD > limit || tie || bestD == 0 {
		return "", false
	}
	return best, true
}

// editDistance is the optimal string alignment distance of a and b (the
// Damerau-Levenshtein distance, no substring edited twice).
func editDistance(a, b string) int {
	x, y := []rune(a), []rune(b)
	d := make([][]int, len(x)+1)
	for i := range d {
		d[i] = make([]int, len(y)+1)
		d[i][0] = i
	}
	for j := range d[0] {
		d[0][j] = j
	}
	for i := 1; i <= len(x); i++ {
		for j := 1; j <= len(y); j++ {
			cost := 1
			if x[i-1] == y[j-1] {
				cost = 0
			}
			d[i][j] = min(d[i-1][j]+1, d[i][j-1]+1, d[i-1][j-1]+cost)
			if i > 1 && j > 1 && x[i-1] == y[j-2] && x[i-2] == y[j-1] {
				d[i][j] = min(d[i][j], d[i-2][j-2]+1)
			}
		}
	}
	return d[len(x)][len(y)]
}

// unknownPart returns the first comma-separated part of v that is not
// one of valid (ignoring case), and the name of valid near it, if any.
func unknownPart(v string, valid []string) (part, near string, ok bool) {
	for _, part := range strings.Split(v, ",") {
		part = strings.TrimSpace(part)
		known := false
		for _, c := range valid {
			known = known || strings.EqualFold(c, part)
		}
		if known || part == "" {
			continue
		}
		near, ok := Nearest(part, valid)
		return part, near, ok
	}
	return "", "", false
}

// Suggest returns err with a "did you mean" for v among valid: after the
// unknown name where the message quotes it ("unknown type "Signatur"
// (did you mean Signature?): valid types are ..."), else at its end; nil
// for a nil err.
func Suggest(err error, v string, valid []string) error {
	if err == nil {
		return nil
	}
	part, near, ok := unknownPart(v, valid)
	if !ok {
		return err
	}
	hint := " (did you mean " + near + "?)"
	msg := err.Error()
	if q := strconv.Quote(part); strings.Contains(msg, q) {
		return suggestion{strings.Replace(msg, q, q+hint, 1), err}
	}
	return suggestion{msg + ";" + strings.TrimSuffix(strings.TrimPrefix(hint, " ("), ")"), err}
}

// suggestion is an error with a "did you mean" in its words; it unwraps
// to the error it was made from.
type suggestion struct {
	msg string
	err error
}

func (s suggestion) Error() string { return s.msg }
func (s suggestion) Unwrap() error { return s.err }
