package policy

import (
	"fmt"
	"path/filepath"
	"strings"
	"testing"
)

// TestBlindSpotSubprojects: a build goes into the subprojects its build
// files name, and a task file imports its helpers, none of which was
// read: maven's <module>, gradle's include, CMake's add_subdirectory,
// meson's subdir, a Taskfile's includes and a Terraform module's local
// source ran a new build file below at tier 2, and so did a noxfile's,
// tasks.py's or conftest.py's import, a gulpfile's require and a
// Rakefile's require_relative. Each now meets the deny list; old files
// and another host are not denied, and past maxLinkedTrees subprojects a
// call takes approval.
func TestBlindSpotSubprojects(t *testing.T) {
	dir, _ := lastingDir(t, "subprojects-")
	p, err := New(Rules{Path: "/usr/bin:/bin", Dir: dir})
	if err != nil {
		t.Fatal(err)
	}
	const py = "import os\nos.system('reboot')\n"
	for name, text := range map[string]string{
		"mvn/pom.xml": "<project><modules>\n  <module>core</module>\n</modules></project>\n", "mvn/core/pom.xml": "<project><modules><module>../deep</module></modules></project>\n",
		"mvn/deep/pom.xml":   "<project><build><plugins><plugin><configuration><executable>reboot</executable></configuration></plugin></plugins></build></project>\n",
		"gr/settings.gradle": "rootProject.name = 'x'\ninclude 'app', ':libs:core'\n", "gr/libs/core/build.gradle": "task x { doLast { ['reboot'].execute() } }\n",
		"grk/settings.gradle.kts": "include(\":sub\")\n", "grk/sub/build.gradle.kts": "Runtime.getRuntime().exec(\"reboot\")\n",
		"grc/settings.gradle.kts": "includeBuild(\"../plugins\")\n", "plugins/build.gradle.kts": "Runtime.getRuntime().exec(\"reboot\")\n",
		"cm/CMakeLists.txt": "project(x)\nadd_subdirectory(src)\n", "cm/src/CMakeLists.txt": "execute_process(COMMAND reboot)\n",
		"me/meson.build": "project('x')\nsubdir('sub')\n", "me/sub/meson.build": "run_command('reboot')\n",
		"tk/Taskfile.yml": "version: '3'\nincludes:\n  sub: ./sub\n", "tk/sub/Taskfile.yml": "version: '3'\ntasks:\n  x:\n    cmds:\n      - reboot\n",
		"tf/main.tf": "module \"m\" {\n  source = \"./modules/m\"\n}\n", "tf/modules/m/main.tf": "resource \"null_resource\" \"x\" {\n  provisioner \"local-exec\" {\n    command = \"reboot\"\n  }\n}\n",
		"nox/noxfile.py": "import helper\n", "nox/helper.py": py, "inv/tasks.py": "from helpers import deploy\n", "inv/helpers/__init__.py": py,
		"pt/conftest.py": "pytest_plugins = ['plug']\n", "pt/plug.py": py, "gu/gulpfile.js": "require('./lib/tasks')\n", "gu/lib/tasks.js": "require('child_process').execSync('reboot')\n",
		"rk/Rakefile": "require_relative 'lib/tasks'\n", "rk/lib/tasks.rb": "system('reboot')\n",
	} {
		writeUnder(t, dir, name, text)
	}
	wantProjectDenied(t, p, dir, []projectCase{
		{"cd mvn && mvn package", "mvn/deep/pom.xml"}, {"cd gr && gradle build", "gr/libs/core/build.gradle"}, {"cd grk && gradle build", "grk/sub/build.gradle.kts"},
		{"cd grc && gradle build", "plugins/build.gradle.kts"},
		{"cd cm && cmake -B build", "cm/src/CMakeLists.txt"}, {"cd me && meson setup b", "me/sub/meson.build"}, {"cd tk && task sub:x", "tk/sub/Taskfile.yml"},
		{"cd tf && terraform apply", "tf/modules/m/main.tf"}, {"cd nox && nox", "nox/helper.py"}, {"cd inv && invoke deploy", "inv/helpers/__init__.py"},
		{"cd pt && pytest", "pt/plug.py"}, {"cd gu && gulp", "gu/lib/tasks.js"}, {"cd rk && rake", "rk/lib/tasks.rb"},
	})
	wantNotDeniedIn(t, p, dir, true, []string{"cd mvn && mvn package", "cd gr && gradle build", "cd cm && cmake .", "cd nox && nox"})
	for _, n := range []int{maxLinkedTrees, maxLinkedTrees + 1} {
		root := filepath.Join(dir, fmt.Sprint("many", n))
		var inc []string
		for i := range n {
			inc = append(inc, fmt.Sprintf("'p%d'", i))
			writeUnder(t, root, fmt.Sprintf("p%d/build.gradle", i), "\n")
		}
		writeUnder(t, root, "settings.gradle", "include "+strings.Join(inc, ", ")+"\n")
		v := p.Evaluate(Input{Command: "cd " + root + " && gradle build"})
		if n > maxLinkedTrees {
			wantPastLimit(t, fmt.Sprintf("%d subprojects", n), v, maxLinkedTrees)
		} else {
			wantWithin(t, fmt.Sprintf("%d subprojects", n), v)
		}
	}
}
