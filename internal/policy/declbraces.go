package policy

import (
	"strings"

	"mvdan.cc/sh/v3/syntax"
)

// A declaration builtin's argument that is not an assignment word to the
// parser, because its name holds a brace expansion (export
// LD_{PRELOAD,X}=/tmp/x.so, declare -x PATH{,}=/tmp/x), is expanded by
// bash as any other word, and the builtin then reads each field as an
// assignment: bash sets LD_PRELOAD and LD_X, and the next program loads
// the library. (dash refuses the name.) So each field is classified as
// the assignment it makes; one the classifier cannot expand (too many
// groups) could name any variable, and the integer and nameref
// attributes given to such names are tier 3, since later assignments to
// them are not followed.

// bracedDecl classifies the fields a braced declaration argument expands
// into.
func (e *eval) bracedDecl(d *syntax.DeclClause, fields []arg, printOnly bool, ctx cctx) {
	if !printOnly && strings.ContainsAny(declFlags(d), "in") {
		// The integer and nameref attributes change what a later
		// assignment to the name does (n=$x evaluates $x, r=$x sets the
		// variable $x names); the names a brace expansion gives are not
		// followed there.
		e.opaque = true
		e.note(TierDestructive, ctx.covered, "%s -%s of names a brace expansion makes: later assignments to them evaluate or redirect values",
			d.Variant.Value, declFlags(d))
	}
	for _, f := range fields {
		if !f.known {
			if strings.Contains(f.val, "=") || !printOnly {
				e.opaque = true
				e.note(TierDestructive, ctx.covered, "%s: a brace expansion too large to read can set any variable", d.Variant.Value)
			}
			continue
		}
		e.declField(d, f, printOnly, ctx)
	}
}
