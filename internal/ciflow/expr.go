package ciflow

import (
	"fmt"
	"strconv"
	"strings"
)

// Context is what the expressions of a step can read: the forms
// .github/workflows/memprof.yml uses, and no others. An expression that
// reads anything else is an error, never an empty string: a stand-in that
// guessed would pass what GitHub would not run.
type Context struct {
	EventName string // github.event_name: push or pull_request
	Ref       string // github.ref
	Token     string // github.token
	// PullRequest holds github.event.pull_request's fields the workflow
	// reads: number, base.sha, head.sha (nil on a push).
	PullRequest map[string]string
	Matrix      map[string]any
	Secrets     map[string]string
	// Steps holds the outputs of the steps run so far, by step id.
	Steps map[string]map[string]string
	// Failed reports that a step of the job has failed (success() is
	// false, always() still true).
	Failed bool
}

// Interpolate replaces every ${{ expr }} of s by its value.
func (c *Context) Interpolate(s string) (string, error) {
	var b strings.Builder
	for {
		i := strings.Index(s, "${{")
		if i < 0 {
			b.WriteString(s)
			return b.String(), nil
		}
		j := strings.Index(s[i:], "}}")
		if j < 0 {
			return "", fmt.Errorf("unterminated ${{ in %q", s)
		}
		v, err := c.Eval(s[i+3 : i+j])
		if err != nil {
			return "", err
		}
		b.WriteString(s[:i])
		b.WriteString(toString(v))
		s = s[i+j+2:]
	}
}

// If evaluates an if: condition as GitHub does: "" is success(), and a
// condition that calls no status function is success() && it.
func (c *Context) If(cond string) (bool, error) {
	cond = strings.TrimSpace(cond)
	if strings.HasPrefix(cond, "${{") && strings.HasSuffix(cond, "}}") {
		cond = cond[3 : len(cond)-2]
	}
	if cond == "" {
		return !c.Failed, nil
	}
	v, err := c.Eval(cond)
	if err != nil {
		return false, err
	}
	if !strings.Contains(cond, "always()") && !strings.Contains(cond, "success()") && !strings.Contains(cond, "failure()") && c.Failed {
		return false, nil
	}
	return truthy(v), nil
}

// Eval evaluates one expression: literals ('x', true, false, numbers),
// the context's names, ==, !=, !, &&, || (which yield an operand, as
// GitHub's do), parentheses and always(), success(), failure().
func (c *Context) Eval(expr string) (any, error) {
	p := &parser{ctx: c, toks: tokenize(expr)}
	v, err := p.or()
	if err != nil {
		return nil, fmt.Errorf("expression %q: %w", strings.TrimSpace(expr), err)
	}
	if p.i != len(p.toks) {
		return nil, fmt.Errorf("expression %q: unexpected %q", strings.TrimSpace(expr), p.toks[p.i])
	}
	return v, nil
}

func tokenize(s string) []string {
	var toks []string
	for i := 0; i < len(s); {
		switch ch := s[i]; {
		case ch == ' ' || ch == '\t' || ch == '\n':
			i++
		case ch == '\'':
			j := i + 1
			for j < len(s) && !(s[j] == '\'' && (j+1 == len(s) || s[j+1] != '\'')) {
				if s[j] == '\'' {
					j++ // '' is a quote
				}
				j++
			}
			toks = append(toks, s[i:min(j+1, len(s))])
			i = j + 1
		case strings.HasPrefix(s[i:], "==") || strings.HasPrefix(s[i:], "!=") || strings.HasPrefix(s[i:], "&&") || strings.HasPrefix(s[i:], "||"):
			toks = append(toks, s[i:i+2])
			i += 2
		case strings.ContainsRune("!()", rune(ch)):
			toks = append(toks, s[i:i+1])
			i++
		default:
			j := i
			for j < len(s) && !strings.ContainsRune(" \t\n'=!&|()", rune(s[j])) {
				j++
			}
			if j == i {
				j++ // a lone character nothing accepts: the parser names it
			}
			toks = append(toks, s[i:j])
			i = j
		}
	}
	return toks
}

type parser struct {
	ctx  *Context
	toks []string
	i    int
}

func (p *parser) peek() string {
	if p.i < len(p.toks) {
		return p.toks[p.i]
	}
	return ""
}

func (p *parser) or() (any, error) {
	v, err := p.and()
	for err == nil && p.peek() == "||" {
		p.i++
		var w any
		if w, err = p.and(); !truthy(v) {
			v = w
		}
	}
	return v, err
}

func (p *parser) and() (any, error) {
	v, err := p.unary()
	for err == nil && p.peek() == "&&" {
		p.i++
		var w any
		if w, err = p.unary(); truthy(v) {
			v = w
		}
	}
	return v, err
}

func (p *parser) unary() (any, error) {
	if p.peek() == "!" {
		p.i++
		v, err := p.unary()
		return !truthy(v), err
	}
	v, err := p.primary()
	if err != nil {
		return nil, err
	}
	if op := p.peek(); op == "==" || op == "!=" {
		p.i++
		w, err := p.primary()
		if err != nil {
			return nil, err
		}
		eq := strings.EqualFold(toString(v), toString(w)) // GitHub compares strings ignoring case
		return eq == (op == "=="), nil
	}
	return v, nil
}

func (p *parser) primary() (any, error) {
	t := p.peek()
	p.i++
	switch {
	case t == "":
		return nil, fmt.Errorf("unexpected end")
	case t == "(":
		v, err := p.or()
		if err == nil && p.peek() != ")" {
			err = fmt.Errorf("missing )")
		}
		p.i++
		return v, err
	case t == "always" || t == "success" || t == "failure":
		if p.peek() != "(" || p.i+1 >= len(p.toks) || p.toks[p.i+1] != ")" {
			return nil, fmt.Errorf("%s without ()", t)
		}
		p.i += 2
		return map[string]bool{"always": true, "success": !p.ctx.Failed, "failure": p.ctx.Failed}[t], nil
	case strings.HasPrefix(t, "'"):
		if len(t) < 2 || !strings.HasSuffix(t, "'") {
			return nil, fmt.Errorf("unterminated string %s", t)
		}
		return strings.ReplaceAll(t[1:len(t)-1], "''", "'"), nil
	case t == "true" || t == "false":
		return t == "true", nil
	case t == "null":
		return nil, nil
	}
	if f, err := strconv.ParseFloat(t, 64); err == nil {
		return f, nil
	}
	return p.ctx.lookup(t)
}

// lookup reads a name of the context; any other is an error.
func (c *Context) lookup(name string) (any, error) {
	parts := strings.Split(name, ".")
	switch {
	case name == "github.event_name":
		return c.EventName, nil
	case name == "github.ref":
		return c.Ref, nil
	case name == "github.token":
		return c.Token, nil
	case strings.HasPrefix(name, "github.event.pull_request.") && c.PullRequest != nil:
		if v, ok := c.PullRequest[strings.TrimPrefix(name, "github.event.pull_request.")]; ok {
			return v, nil
		}
	case strings.HasPrefix(name, "github.event.pull_request."):
		return nil, nil // a push has no pull request: null, as on GitHub
	case len(parts) == 2 && parts[0] == "matrix":
		if v, ok := c.Matrix[parts[1]]; ok {
			return v, nil
		}
		return nil, fmt.Errorf("no matrix value %s (the row has %s)", parts[1], keys(c.Matrix))
	case len(parts) == 2 && parts[0] == "secrets":
		return c.Secrets[parts[1]], nil // an unset secret is "", as on GitHub
	case len(parts) == 4 && parts[0] == "steps" && parts[2] == "outputs":
		return c.Steps[parts[1]][parts[3]], nil // unset: "", as on GitHub
	}
	return nil, fmt.Errorf("%s is not a form this stand-in evaluates (matrix, step outputs, pull-request fields, secrets, github.event_name, github.ref, github.token)", name)
}

func keys[V any](m map[string]V) string {
	var ks []string
	for k := range m {
		ks = append(ks, k)
	}
	return strings.Join(ks, ", ")
}

func truthy(v any) bool {
	switch v := v.(type) {
	case nil:
		return false
	case bool:
		return v
	case string:
		return v != ""
	case float64:
		return v != 0
	case int:
		return v != 0
	}
	return true
}

func toString(v any) string {
	switch v := v.(type) {
	case nil:
		return ""
	case string:
		return v
	case float64:
		return strconv.FormatFloat(v, 'f', -1, 64)
	}
	return fmt.Sprint(v)
}
