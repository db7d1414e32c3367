package policy

import (
	"path"
	"regexp"
	"strings"
)

// A build file names the subprojects the build goes into, each a
// directory with build files of its own: maven's <module>, gradle's
// include, CMake's add_subdirectory, meson's subdir, a Taskfile's
// includes, a Terraform module's local source. Their files run as the
// project's own do.

// subprojectRefs find, by a build file's name, the subprojects it names.
var subprojectRefs = map[string]*regexp.Regexp{
	"pom.xml":             regexp.MustCompile(`<module>\s*([^<\s]+)\s*</module>`),
	"settings.gradle":     gradleInclude,
	"settings.gradle.kts": gradleInclude,
	"CMakeLists.txt":      regexp.MustCompile(`(?i)\badd_subdirectory\s*\(\s*"?([^"\s)]+)`),
	"meson.build":         regexp.MustCompile(`\bsubdir\s*\(\s*'([^']+)'`),
	"Taskfile.yml":        taskInclude,
	"Taskfile.yaml":       taskInclude,
}

var (
	// gradleInclude is an include of gradle's settings and the project
	// paths it names (include 'a', ':b:c' or include(":a")), or a
	// composite build's directory (includeBuild("../x")).
	gradleInclude = regexp.MustCompile(`\binclude(?:Build)?\s*\(?\s*((?:["'][^"']+["']\s*,?\s*)+)`)
	// taskInclude is a Taskfile's include of a directory or file:
	// "sub: ./sub" or "taskfile: ./x.yml".
	taskInclude = regexp.MustCompile(`(?m)^\s+[\w.-]+:\s*["']?(\.{1,2}/[^"'\s]*)`)
	// tfSource is a Terraform module's local source.
	tfSource = regexp.MustCompile(`\bsource\s*=\s*"(\.{1,2}/[^"]*)"`)
)

// subprojects returns the directories the build file p names as
// subprojects, and the build files it names whole (a Taskfile's
// include of x.yml is read from its directory as a project too).
func (e *eval) subprojects(p string) []string {
	base, dir := path.Base(p), path.Dir(p)
	re := subprojectRefs[base]
	if re == nil && (strings.HasSuffix(base, ".tf") || strings.HasSuffix(base, ".tofu")) {
		re = tfSource
	}
	if re == nil {
		return nil
	}
	text, ok := e.readLocal(p)
	if !ok {
		return nil
	}
	var out []string
	for _, m := range re.FindAllStringSubmatch(text, -1) {
		names := []string{m[1]}
		if re == gradleInclude {
			names = nil
			for _, q := range tomlString.FindAllStringSubmatch(m[1], -1) {
				names = append(names, strings.ReplaceAll(strings.TrimPrefix(q[1], ":"), ":", "/"))
			}
		}
		for _, n := range names {
			sub := localPath(dir, n)
			if !isDir(sub) {
				sub = path.Dir(sub) // a file: its directory's build files
			}
			if sub != dir {
				out = append(out, sub)
			}
		}
	}
	return out
}
