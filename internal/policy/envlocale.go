package policy

import "strings"

// bash translates a $"…" string through the message catalog of
// TEXTDOMAIN and then expands the translation as a double-quoted string,
// running the $(…) in it (noexpand_translation is off by default). The
// catalog is read from TEXTDOMAINDIR (in dangerousEnv), and gettext joins
// each name in LANGUAGE to that directory as it is, so
// LANGUAGE=../../../../tmp/x/en reads /tmp/x/en/LC_MESSAGES/DOMAIN.mo, a
// file a tier 1 call can write: bash -c 'echo $"hi"' then runs what it
// says (tried with bash 5.2). glibc takes a locale name with a slash as a
// path to the locale's data, which it trusts as it trusts its own files.
// So a locale variable whose value names a path, and a LANGUAGE known
// only at run time, change which code runs: tier 3. Locale names (C,
// C.UTF-8, de_DE, en:fr) keep the call's tier.

// localeVars are the variables naming the locale programs use.
var localeVars = set(`LANG LANGUAGE LC_ALL LC_CTYPE LC_MESSAGES LC_COLLATE LC_NUMERIC LC_TIME LC_MONETARY
	LC_PAPER LC_NAME LC_ADDRESS LC_TELEPHONE LC_MEASUREMENT LC_IDENTIFICATION`)

// localeVar classifies setting a locale variable name to val (known, or
// else computed at run time).
func (e *eval) localeVar(name, val string, known bool, ctx cctx, where string) {
	if !localeVars[name] {
		return
	}
	switch {
	case !known && name == "LANGUAGE":
		e.opaque = true
		e.note(TierDestructive, ctx.covered, "%s sets LANGUAGE to a value known only at run time: a name with a slash picks a "+
			"message catalog by path, whose translations bash expands, $(…) included", where)
	case known && strings.IndexByte(val, '/') >= 0:
		e.opaque = true
		e.note(TierDestructive, ctx.covered, "%s sets %s to %s, a path: programs load the locale data or message catalogs "+
			"found there, and bash expands a catalog's translations, $(…) included", where, name, truncate(val, 64))
	}
}
