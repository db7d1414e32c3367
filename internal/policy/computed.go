package policy

import (
	"strings"

	"mvdan.cc/sh/v3/syntax"
)

// mayBeOption reports whether an argument can reach the program as an
// option: a known value beginning with '-', a glob that can match a file
// named like one, or a value computed at run time that can begin with '-'
// or split into several words (x='-o /etc/passwd'; sort $x). A computed
// word that starts with a literal other than '-' and has no unquoted
// expansion ("/var/log/$f", "http://$host/") is one operand, and so is a
// variable that provably holds an integer.
func (c *call) mayBeOption(a arg) bool {
	splits, dash := c.computedShape(a)
	return splits || dash
}

// computedShape reports whether an argument can become several words
// (splits) and whether one of them can begin with '-' (dash).
func (c *call) computedShape(a arg) (splits, dash bool) {
	if a.known {
		return false, strings.HasPrefix(a.val, "-") || a.glob && a.val != "" && strings.ContainsAny(a.val[:1], "*?[")
	}
	w := parseWord(a.val)
	if w == nil || len(w.Parts) == 0 {
		return true, true
	}
	for _, p := range w.Parts {
		switch p := p.(type) {
		case *syntax.Lit, *syntax.SglQuoted, *syntax.DblQuoted:
		case *syntax.ParamExp:
			if !c.intParam(p) {
				return true, true // an unquoted expansion splits into fields
			}
		default:
			return true, true
		}
	}
	return false, !c.safeLead(w.Parts[0])
}

// intParam reports whether a parameter expansion is a plain $x that
// provably holds an integer, which no field splitting turns into an option.
func (c *call) intParam(p *syntax.ParamExp) bool {
	if !simpleParam(p) {
		return false
	}
	switch n := p.Param.Value; n {
	case "#", "?", "$", "!":
		return true
	default:
		return c.e.intName(c.ctx.sc, n)
	}
}

// safeLead reports whether a word part begins with a literal character
// that is neither '-' nor one that globbing or brace expansion could turn
// into '-', or with a variable that provably holds an integer.
func (c *call) safeLead(p syntax.WordPart) bool {
	switch p := p.(type) {
	case *syntax.Lit:
		return p.Value != "" && !strings.ContainsAny(p.Value[:1], "-*?[{\\")
	case *syntax.SglQuoted:
		return p.Value != "" && p.Value[0] != '-'
	case *syntax.ParamExp:
		return c.intParam(p)
	case *syntax.DblQuoted:
		if len(p.Parts) == 0 {
			return false
		}
		switch q := p.Parts[0].(type) {
		case *syntax.Lit:
			return q.Value != "" && q.Value[0] != '-' && q.Value[0] != '\\'
		case *syntax.ParamExp:
			return c.intParam(q)
		}
	}
	return false
}

// computedOption returns the first argument of args, up to a "--", that a
// value computed at run time can turn into an option, and whether there is
// one. skip reports the arguments whose position makes them an option's
// value, which are not options whatever they hold.
func (c *call) computedOption(args []arg, skip func(i int) bool) (arg, bool) {
	for i, a := range args {
		if a.known && a.val == "--" {
			break
		}
		if a.known || skip != nil && skip(i) {
			continue
		}
		if c.mayBeOption(a) {
			return a, true
		}
	}
	return arg{}, false
}
