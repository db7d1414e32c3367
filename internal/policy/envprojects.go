package policy

import "strings"

// Tools take the project they run (its recipes, tasks, tests, compose
// file) from variables as from options: JUST_JUSTFILE and
// JUST_WORKING_DIRECTORY are just's -f and -d, UV_PROJECT and
// UV_WORKING_DIRECTORY uv's --project and --directory,
// TERRAGRUNT_WORKING_DIR terragrunt's, COMPOSE_FILE and
// COMPOSE_PROJECT_DIRECTORY compose's -f and --project-directory,
// PYTEST_ADDOPTS pytest's options (--rootdir, -c). Naming a temporary
// directory, one relative to a working directory the input makes one, or
// a value known only at run time, such a variable makes the call tier 3,
// as the option does (codesources.go).

// projectVarSuffixes are the endings of variables naming a project's
// directory or file.
var projectVarSuffixes = []string{"_CWD", "_WORKING_DIR", "_WORKING_DIRECTORY", "_PROJECT_DIR", "_PROJECT_DIRECTORY",
	"_PROJECT_ROOT", "_JUSTFILE", "_TASKFILE", "_MAKEFILE", "_BUILD_FILE", "_BUILDFILE", "_MANIFEST_PATH"}

// projectVars are the variables tools are known to take their project
// from. Other names with one of projectVarSuffixes are taken as such only
// when their value is a literal path into a temporary directory: a
// script's own ORIG_CWD=$(pwd) or PROJECT_ROOT=$(git rev-parse
// --show-toplevel) names nothing a tool reads.
var projectVars = set(`JUST_JUSTFILE JUST_WORKING_DIRECTORY UV_PROJECT UV_WORKING_DIRECTORY TERRAGRUNT_WORKING_DIR
	TG_WORKING_DIR COMPOSE_FILE COMPOSE_PROJECT_DIRECTORY COMPOSE_ENV_FILES PYTEST_ADDOPTS SKAFFOLD_FILENAME
	PLATFORMIO_PROJECT_DIR`)

// projectVarPlaces are, for each project program, the variables naming
// its project's files (COMPOSE_FILE's list, COMPOSE_ENV_FILES' too) and
// then those naming its directory, which meet the deny list as the
// options that do the same do (projectcode.go).
var projectVarPlaces = map[string][2][]string{
	"docker-compose": {{"COMPOSE_FILE", "COMPOSE_ENV_FILES"}, {"COMPOSE_PROJECT_DIRECTORY"}},
	"podman-compose": {{"COMPOSE_FILE", "COMPOSE_ENV_FILES"}, {"COMPOSE_PROJECT_DIRECTORY"}},
	"just":           {{"JUST_JUSTFILE"}, {"JUST_WORKING_DIRECTORY"}},
	"skaffold":       {{"SKAFFOLD_FILENAME"}, nil},
	"uv":             {nil, {"UV_PROJECT", "UV_WORKING_DIRECTORY"}},
	"terragrunt":     {nil, {"TERRAGRUNT_WORKING_DIR", "TG_WORKING_DIR"}},
}

// projectPlaceVars are the variables projectVarPlaces names, and git's
// repository, work tree and template directory.
var projectPlaceVars = func() map[string]bool {
	m := map[string]bool{"GIT_DIR": true, "GIT_WORK_TREE": true, "GIT_TEMPLATE_DIR": true}
	for _, places := range projectVarPlaces {
		for _, vars := range places {
			for _, n := range vars {
				m[n] = true
			}
		}
	}
	return m
}()

// projectVar classifies setting name, if it names a project, to val
// (known, or else computed at run time). A known value of one of
// projectPlaceVars is kept, however it is given (env, run_command's env,
// a wrapper's option), for the project program it names files for.
func (e *eval) projectVar(name, val string, known bool, ctx cctx, where string) {
	if known && projectPlaceVars[name] {
		e.projectEnv = keepAll(e, e.projectEnv, [][2]string{{name, val}}, maxCodeValues, projectEnvWhat)
	}
	listed := projectVars[name]
	if !listed && !hasProjectSuffix(name) {
		return
	}
	why := ""
	switch {
	case !known:
		if listed {
			why = "a value known only at run time"
		}
	case name == "PYTEST_ADDOPTS":
		why = pytestAddoptsAgent(val)
	default:
		for _, v := range strings.Split(val, ":") { // COMPOSE_FILE's list
			if listed || strings.HasPrefix(v, "/") || climbs(v) {
				why = e.projectPlaceAgent(v)
			}
			if why != "" {
				break
			}
		}
	}
	if why != "" {
		e.opaque = true
		e.note(TierDestructive, ctx.covered, "%s sets %s, the project a tool runs the code of, to %s", where, name, why)
	}
}

// hasProjectSuffix reports whether name ends in one of projectVarSuffixes.
func hasProjectSuffix(name string) bool {
	if len(name) < 5 || name[0] < 'A' || name[0] > 'Z' {
		return false
	}
	for _, s := range projectVarSuffixes {
		if strings.HasSuffix(name, s) && len(name) > len(s) {
			return true
		}
	}
	return false
}

// projectPlaceAgent says why the project place v may be one a tier 1 call
// wrote, or returns "".
func (e *eval) projectPlaceAgent(v string) string {
	switch {
	case v == "":
		return ""
	case strings.HasPrefix(v, "/"):
		if why := agentPath(v); why != "" {
			return truncate(v, 64) + ", which " + why
		}
		return ""
	case strings.HasPrefix(v, "~"):
		return codePathAgent(arg{val: v, known: true})
	case climbs(v):
		return truncate(v, 64) + ", which climbs out of the working directory"
	}
	if where := e.agentCwdOf(true); where != "" {
		return truncate(v, 64) + ", relative to a working directory where " + where
	}
	return ""
}

// pytestAddoptsAgent says why pytest options in PYTEST_ADDOPTS may point
// it at a project a tier 1 call wrote (--rootdir, -c, --confcutdir, a
// test path), or returns "".
func pytestAddoptsAgent(val string) string {
	for _, w := range strings.Fields(val) {
		if _, v, ok := strings.Cut(w, "="); ok {
			w = v
		}
		if why := codePathAgent(arg{val: w, known: true}); why != "" {
			return truncate(val, 64) + ": " + why
		}
		if climbs(w) {
			return truncate(val, 64) + ": " + truncate(w, 64) + " climbs out of the working directory"
		}
	}
	return ""
}
