package render

import (
	"image/color"
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
// names it).

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
	var taken []vg.Rectangle
	r := l.radius + 1
	for _, it := range l.items {
		px, py := trX(it.x), trY(it.y)
		taken = append(taken, vg.Rectangle{Min: vg.Point{X: px - r, Y: py - r}, Max: vg.Point{X: px + r, Y: py + r}})
		if it.xHigh > it.xLow {
			taken = append(taken, vg.Rectangle{Min: vg.Point{X: trX(it.xLow), Y: py - 2}, Max: vg.Point{X: trX(it.xHigh), Y: py + 2}})
		}
	}
	l.placed = make([]placement, len(l.items))
	number := 0
	for i, it := range l.items {
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
				if b.Min.X >= trX(it.from)+labelGap {
					box, ok, inBar = b, true, true
				}
			}
			if ok {
				l.placed[i] = placement{box: box, text: t, inside: inBar}
				taken = append(taken, box)
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

// find returns the first place for label t of a point at (px, py) whose
// box overlaps nothing taken and lies inside c.
func (l *labelLayer) find(c draw.Canvas, taken []vg.Rectangle, t string, px, py, right, r vg.Length, only bool) (vg.Rectangle, bool) {
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
		if !inside(box, c.Rectangle) {
			continue
		}
		free := true
		for _, o := range taken {
			free = free && !overlaps(box, o)
		}
		if free {
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
// or left out: "3 gnark uncompressed".
func (l *labelLayer) numbered() []string {
	var out []string
	for i, pl := range l.placed {
		if pl.number > 0 {
			out = append(out, strconv.Itoa(pl.number)+" "+l.items[i].text)
		}
	}
	return out
}
