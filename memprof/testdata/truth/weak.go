package truth

import "weak"

// Payload is what a Weakly instance points to, strongly and weakly.
type Payload struct{ b [32]byte }

// Weakly instances hold an object and a weak pointer to it: weak.Make
// gives the object a handle on the heap and a record outside it.
type Weakly struct {
	p *Payload
	w weak.Pointer[Payload]
}

// NewWeakly makes instance i: a Payload and a weak pointer to it.
func NewWeakly(i int) any {
	p := &Payload{}
	p.b[0] = byte(i)
	return &Weakly{p: p, w: weak.Make(p)}
}
