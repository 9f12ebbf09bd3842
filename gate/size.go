package gate

// yamlNodes returns an upper bound of the nodes a YAML parser makes of
// src, without parsing it: twice the runs of characters between white
// space and YAML's indicators and the flow collections (each key, value,
// list item and quoted string is one run at least; a block collection or
// an empty value, which have no characters of their own, take one node
// per run at most), plus the document and its root. Comments do not
// count. Parsing costs a few hundred bytes per node, far more than per
// byte for dense text, so the budgets reader bounds the nodes too
// (BytesPerNode).
func yamlNodes(src []byte) int {
	n := 0
	sep := true // at the start of a run when the next byte is not a separator
	for i := 0; i < len(src); i++ {
		c := src[i]
		switch c {
		case ' ', '\t', '\r', '\n', ',', ':':
			sep = true
			continue
		case '[', '{':
			n++
			sep = true
			continue
		case ']', '}':
			sep = true
			continue
		case '#':
			if sep {
				for i < len(src) && src[i] != '\n' {
					i++
				}
				continue
			}
		case '"', '\'':
			if sep {
				n++
				i = endQuoted(src, i)
				sep = true
				continue
			}
		}
		if sep {
			n++
			sep = false
		}
	}
	return 2*n + 2
}

// endQuoted returns the index of the quote that closes the quoted
// scalar starting at src[start] (a backslash escapes in double quotes, a
// doubled quote in single quotes), or the last index when it does not
// close.
func endQuoted(src []byte, start int) int {
	q := src[start]
	for i := start + 1; i < len(src); i++ {
		switch {
		case q == '"' && src[i] == '\\':
			i++
		case src[i] == q && q == '\'' && i+1 < len(src) && src[i+1] == '\'':
			i++
		case src[i] == q:
			return i
		}
	}
	return len(src) - 1
}
