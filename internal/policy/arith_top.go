package policy

import "mvdan.cc/sh/v3/syntax"

// topStmt follows a walk of a script through its direct statements, of
// which factsVisitor trusts the ones that run before anything later in
// the text: not in the background, and with no redirection that may fail
// and skip them (sureRedirs). It learns them as the walk reaches them,
// rather than in a pass over every statement of the script before it.
type topStmt struct {
	rest []*syntax.Stmt // the script's direct statements the walk has not reached
	// cmd is the command of the direct statement being walked, if it is
	// one of the trusted; nil otherwise.
	cmd syntax.Command
	// assigns are the assignments of cmd the walk has not reached, when
	// it is a bare assignment (x=1) or a declaration other than local;
	// assoc is set when that declaration is declare -A (setsAssoc).
	assigns []*syntax.Assign
	assoc   bool
}

// stmt notes that the walk reached s.
func (t *topStmt) stmt(s *syntax.Stmt) {
	if len(t.rest) == 0 || t.rest[0] != s {
		return // a statement nested in a direct one
	}
	t.rest = t.rest[1:]
	t.cmd, t.assigns, t.assoc = nil, nil, false
	if s.Background || s.Coprocess || !sureRedirs(s.Redirs) {
		return
	}
	t.cmd = s.Cmd
	switch c := s.Cmd.(type) {
	case *syntax.CallExpr:
		if len(c.Args) == 0 {
			t.assigns = c.Assigns
		}
	case *syntax.DeclClause:
		if c.Variant.Value != "local" {
			t.assigns, t.assoc = c.Args, setsAssoc(c)
		}
	}
}

// assign reports whether the walk reached a, an assignment of a trusted
// direct statement. The walk reaches them in order, and any assignment
// nested in one (x=$(y=1)) between them, so only the next can be a.
func (t *topStmt) assign(a *syntax.Assign) bool {
	if len(t.assigns) == 0 || t.assigns[0] != a {
		return false
	}
	t.assigns = t.assigns[1:]
	return true
}
