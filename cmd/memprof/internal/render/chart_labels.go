package render

import (
	"cmp"
	"context"
	"image/color"
	"slices"
	"strconv"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/text"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
)

// A chart's labels are placed where they overlap nothing: no other
// label, no point, no error bar, inside the plot. Each label tries the
// places beside its point in turn (right, above and below it, left...),
// then further out; one that finds none is written as a number beside
// its point, and the chart's legend says what the number names; one whose
// number finds no place either is left unlabelled (the legend still
// names it). A scatter chart of more points than its layer's limit
// names only that many, the extreme ones (chooseExtremes), and its
// legend counts the others. What is drawn is kept in a grid of cells
// (occupancy), so that a place is checked against what lies near it
// only: placing the labels takes time linear in the points.

// labelItem is one point to label: where it is (in data coordinates),
// its text, and the extent of what is drawn there (its marker's radius,
// its error bar from xLow to xHigh).
type labelItem struct {
	x, y, xLow, xHigh float64
	text              string
	color             color.Color
	// only: the label goes beside the point to its right (a bar's end),
	// or, where that does not fit, inside the bar, which starts at from,
	// in white; else it is a number.
	only bool
	from float64
}

// labelLayer is a plotter that places and draws the labels of items; it
// keeps where it placed them, so that the chart's second drawing (after
// its legend took the numbers) draws them in the same places.
type labelLayer struct {
	items  []labelItem
	style  text.Style
	radius vg.Length // of the points' markers
	// limit, when not 0, is the most items named (labelled, numbered or
	// in the legend): beyond it, only the extreme ones are.
	limit int
	// ctx, when not nil, stops the placing once it is done: the labels
	// not yet placed are left out (the chart is not written).
	ctx    context.Context
	named  []bool // the items named, chosen once (nil: all)
	placed []placement
	done   bool
}

// placement is where one label went: its box on the canvas and its text
// (the item's, or its number), empty when it found no place.
type placement struct {
	box    vg.Rectangle
	text   string
	number int
	inside bool // inside its bar: written in white
}

// labelBoxesHook, when set (by a test), gets every label layer a chart
// draws, its labels placed, and the plot's area.
var labelBoxesHook func(l *labelLayer, area vg.Rectangle)

// labelGap is the space between a point and its label.
const labelGap = 3

// Plot implements plot.Plotter: it places the labels (on the first
// drawing) and draws them.
func (l *labelLayer) Plot(c draw.Canvas, p *plot.Plot) {
	trX, trY := p.Transforms(&c)
	if !l.done {
		l.place(c, trX, trY)
		l.done = true
	}
	for i, pl := range l.placed {
		if l.stopped() {
			break
		}
		if pl.text == "" {
			continue
		}
		sty := l.style
		sty.Color = l.items[i].color
		if pl.inside {
			sty.Color = white
		}
		sty.XAlign, sty.YAlign = draw.XLeft, draw.YBottom
		c.FillText(sty, pl.box.Min, pl.text)
	}
	if labelBoxesHook != nil {
		labelBoxesHook(l, c.Rectangle)
	}
}

// place finds each item's label a place.
func (l *labelLayer) place(c draw.Canvas, trX, trY func(float64) vg.Length) {
	taken := newOccupancy(c.Rectangle)
	r := l.radius + 1
	for _, it := range l.items {
		if l.stopped() {
			return
		}
		px, py := trX(it.x), trY(it.y)
		taken.add(vg.Rectangle{Min: vg.Point{X: px - r, Y: py - r}, Max: vg.Point{X: px + r, Y: py + r}})
		if it.xHigh > it.xLow {
			taken.add(vg.Rectangle{Min: vg.Point{X: trX(it.xLow), Y: py - 2}, Max: vg.Point{X: trX(it.xHigh), Y: py + 2}})
		}
	}
	l.choose()
	l.placed = make([]placement, len(l.items))
	number := 0
	for i, it := range l.items {
		if l.stopped() {
			return
		}
		if l.named != nil && !l.named[i] {
			continue
		}
		px, py := trX(it.x), trY(it.y)
		right := px + r + labelGap
		if it.xHigh > it.xLow {
			right = max(right, trX(it.xHigh)+labelGap)
		}
		for _, t := range []string{it.text, strconv.Itoa(number + 1)} {
			box, ok := l.find(c, taken, t, px, py, right, r, it.only)
			inBar := false
			if !ok && it.only {
				// Inside the bar, its end's side.
				w, h := l.style.Width(t), l.style.Height(t)
				b := vg.Rectangle{Min: vg.Point{X: px - labelGap - w, Y: py - h/2}, Max: vg.Point{X: px - labelGap, Y: py + h/2}}
				if b.Min.X >= trX(it.from)+labelGap && inside(b, c.Rectangle) {
					box, ok, inBar = b, true, true
				}
			}
			if ok {
				l.placed[i] = placement{box: box, text: t, inside: inBar}
				taken.add(box)
				if t != it.text {
					number++
					l.placed[i].number = number
				}
				break
			}
		}
		if l.placed[i].text == "" {
			number++
			l.placed[i].number = number // named in the legend only
		}
	}
}

// stopped reports whether the layer's context is done.
func (l *labelLayer) stopped() bool { return l.ctx != nil && l.ctx.Err() != nil }

// chooseExtremes returns which of items to name, at most limit of them:
// in turn the one furthest right, the highest, the furthest left and the
// lowest not yet chosen, passing over one drawn where a chosen one is
// (copies of a case), so that the points that stand out are named and
// the crowd between them is not.
func chooseExtremes(items []labelItem, limit int) []bool {
	x := func(i int) float64 { return items[i].x }
	y := func(i int) float64 { return items[i].y }
	neg := func(f func(int) float64) func(int) float64 { return func(i int) float64 { return -f(i) } }
	// Each order puts first the point furthest one way (the other
	// coordinate, then memprof's order, breaking ties).
	var orders [][]int
	for _, key := range [][2]func(int) float64{{neg(x), neg(y)}, {neg(y), neg(x)}, {x, y}, {y, x}} {
		order := make([]int, len(items))
		for i := range order {
			order[i] = i
		}
		slices.SortFunc(order, func(a, b int) int {
			return cmp.Or(cmp.Compare(key[0](a), key[0](b)), cmp.Compare(key[1](a), key[1](b)), cmp.Compare(a, b))
		})
		orders = append(orders, order)
	}
	type at struct{ x, y float64 }
	chosen, drawnAt := make([]bool, len(items)), map[at]bool{}
	next := make([]int, len(orders))
	for count, progress := 0, true; count < limit && progress; {
		progress = false
		for o, order := range orders {
			for count < limit && next[o] < len(order) {
				i := order[next[o]]
				next[o]++
				p := at{items[i].x, items[i].y}
				if chosen[i] || drawnAt[p] {
					continue
				}
				chosen[i], drawnAt[p] = true, true
				count++
				progress = true
				break
			}
		}
	}
	return chosen
}

// choose chooses, once, the items to name when they are more than the
// limit.
func (l *labelLayer) choose() {
	if l.named == nil && l.limit > 0 && len(l.items) > l.limit {
		l.named = chooseExtremes(l.items, l.limit)
	}
}

// unnamed returns how many items the layer leaves unnamed (beyond its
// limit).
func (l *labelLayer) unnamed() int {
	n := 0
	for _, named := range l.named {
		if !named {
			n++
		}
	}
	return n
}

// find returns the first place for label t of a point at (px, py) whose
// box overlaps nothing taken and lies inside c.
func (l *labelLayer) find(c draw.Canvas, taken *occupancy, t string, px, py, right, r vg.Length, only bool) (vg.Rectangle, bool) {
	w, h := l.style.Width(t), l.style.Height(t)
	var corners []vg.Point // lower left corners, in order of preference
	corners = append(corners, vg.Point{X: right, Y: py - h/2})
	if !only {
		for step := vg.Length(0); step <= 3; step++ {
			up, down := py+r+labelGap/2+step*h, py-r-labelGap/2-h-step*h
			corners = append(corners,
				vg.Point{X: px - w/2, Y: up}, vg.Point{X: px - w/2, Y: down},
				vg.Point{X: px + r/2, Y: up}, vg.Point{X: px + r/2, Y: down},
				vg.Point{X: px - r/2 - w, Y: up}, vg.Point{X: px - r/2 - w, Y: down},
				vg.Point{X: right, Y: py - h/2 + (step+1)*h}, vg.Point{X: right, Y: py - h/2 - (step+1)*h})
		}
		corners = append(corners, vg.Point{X: px - r - labelGap - w, Y: py - h/2})
	}
	for _, min := range corners {
		box := vg.Rectangle{Min: min, Max: vg.Point{X: min.X + w, Y: min.Y + h}}
		if inside(box, c.Rectangle) && taken.free(box) {
			return box, true
		}
	}
	return vg.Rectangle{}, false
}

// overlaps reports whether two boxes share more than an edge.
func overlaps(a, b vg.Rectangle) bool {
	return a.Min.X < b.Max.X && b.Min.X < a.Max.X && a.Min.Y < b.Max.Y && b.Min.Y < a.Max.Y
}

// inside reports whether box lies within area.
func inside(box, area vg.Rectangle) bool {
	return box.Min.X >= area.Min.X && box.Max.X <= area.Max.X && box.Min.Y >= area.Min.Y && box.Max.Y <= area.Max.Y
}

// numbered returns the legend's lines for the labels written as numbers
// or left out: "3 gnark uncompressed", then how many points the layer
// names nowhere (beyond its limit).
func (l *labelLayer) numbered() []string {
	var out []string
	for i, pl := range l.placed {
		if pl.number > 0 {
			out = append(out, strconv.Itoa(pl.number)+" "+l.items[i].text)
		}
	}
	return append(out, l.unnamedLine()...)
}

// unnamedLine is the legend's line for the points the layer names
// nowhere, if any: "49940 more points, not named".
func (l *labelLayer) unnamedLine() []string {
	if n := l.unnamed(); n > 0 {
		return []string{strconv.Itoa(n) + " more points, not named"}
	}
	return nil
}

// occupancy is what a chart has drawn where labels go: boxes, kept in a
// grid of square cells over the plot, each cell listing the boxes that
// reach into it, so that whether a place is free is asked of the boxes
// near it only. A box drawn twice (points of copied cases) is kept once.
type occupancy struct {
	area       vg.Rectangle
	cols, rows int
	boxes      []vg.Rectangle
	cells      [][]int32 // indices into boxes, row-major
	seen       map[vg.Rectangle]bool
}

// occupancyCell is the side of a cell: about a short label's width, a
// few markers across.
const occupancyCell = vg.Length(24)

func newOccupancy(area vg.Rectangle) *occupancy {
	size := area.Size()
	o := &occupancy{area: area, cols: max(int(size.X/occupancyCell)+1, 1), rows: max(int(size.Y/occupancyCell)+1, 1), seen: map[vg.Rectangle]bool{}}
	o.cells = make([][]int32, o.cols*o.rows)
	return o
}

// span returns the cells b reaches into, clamped to the grid: a box
// beyond the plot is kept in its edge cells.
func (o *occupancy) span(b vg.Rectangle) (c0, r0, c1, r1 int) {
	cell := func(v, from vg.Length, n int) int { return min(max(int((v-from)/occupancyCell), 0), n-1) }
	return cell(b.Min.X, o.area.Min.X, o.cols), cell(b.Min.Y, o.area.Min.Y, o.rows), cell(b.Max.X, o.area.Min.X, o.cols), cell(b.Max.Y, o.area.Min.Y, o.rows)
}

// add marks b as drawn.
func (o *occupancy) add(b vg.Rectangle) {
	if o.seen[b] {
		return
	}
	o.seen[b] = true
	o.boxes = append(o.boxes, b)
	c0, r0, c1, r1 := o.span(b)
	for row := r0; row <= r1; row++ {
		for col := c0; col <= c1; col++ {
			o.cells[row*o.cols+col] = append(o.cells[row*o.cols+col], int32(len(o.boxes)-1))
		}
	}
}

// free reports whether b overlaps nothing drawn. Two boxes that overlap
// share a point inside both, hence a cell: looking at b's cells finds
// every box it overlaps.
func (o *occupancy) free(b vg.Rectangle) bool {
	c0, r0, c1, r1 := o.span(b)
	for row := r0; row <= r1; row++ {
		for col := c0; col <= c1; col++ {
			for _, i := range o.cells[row*o.cols+col] {
				if overlaps(b, o.boxes[i]) {
					return false
				}
			}
		}
	}
	return true
}
