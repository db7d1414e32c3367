package policy

import (
	"regexp"
	"strings"
)

// The deny list's outcomes reached through an interpreter's library
// rather than a program: a tree removed (shutil.rmtree('/usr'), perl's
// rmtree, FileUtils.rm_rf, fs.rmSync), PID 1 or every process signalled
// (os.kill(-1, 9), perl's kill 9, -1, Process.kill, process.kill), a
// block device opened for writing (open('/dev/sda', 'wb'), os.O_WRONLY,
// perl's +<, writeFileSync) and libc's reboot called directly. The text
// scan reads these in payloads it cannot parse, with a literal path or
// pid; one computed at run time is left to the payload's tier 3.

var (
	apiRemoveTree = regexp.MustCompile(`(?:shutil\.rmtree|\brmtree|\bremove_tree|FileUtils\.rm_rf?|FileUtils\.remove_dir|FileUtils\.remove_entry(?:_secure)?|\brmSync|\brmdirSync|promises\.rm|\brimraf(?:\.sync)?|Remove-Item)\s*\(?\s*(?:-\w+\s+)*["']([^"']+)["']`)
	// os.kill(pid, sig), process.kill(pid); perl's kill SIG, PID and
	// ruby's Process.kill(sig, pid) take the signal first.
	apiKillPid  = regexp.MustCompile(`(?:os\.kill|os\.killpg|process\.kill|posix\.kill)\s*\(\s*(-?\d+)\s*[,)]`)
	apiKillSig  = regexp.MustCompile(`(?:Process\.kill|(?:^|[^.\w])kill)\s*\(?\s*["']?:?[A-Za-z0-9_+]+["']?\s*,\s*(-?\d+)\b`)
	apiDevWrite = regexp.MustCompile(`(?:open|openSync|File\.open|File\.write|writeFileSync|createWriteStream|appendFileSync)\s*\(?\s*(?:\w+\s*,\s*)?["'](?:\+<|>>?|\+>)?\s*(/dev/[^"']+)["']\s*(?:,\s*["']?([^"'),]*))?|["'](?:\+<|\+>|>>?)\s*(/dev/[^"']+)["']`)
	apiReboot   = regexp.MustCompile(`(?:CDLL\([^)]*\)|libc)\.reboot\s*\(|\bSYS_reboot\b|\bsyscall\s*\(\s*169\s*,|` +
		`\b(?:syscall|unix)\.Reboot\s*\(|\bLINUX_REBOOT_CMD_(?:RESTART2?|POWER_OFF|HALT|KEXEC)\b|\bRB_(?:AUTOBOOT|POWER_OFF|HALT_SYSTEM|KEXEC)\b`)
)

// scanAPIs denies text that reaches a deny-list outcome through a
// library call, and reports whether it did.
func (e *eval) scanAPIs(s string) bool {
	if strings.Contains(s, "rmtree") || strings.Contains(s, "remove_tree") || strings.Contains(s, "rm_r") ||
		strings.Contains(s, "remove_") || strings.Contains(s, "rmSync") || strings.Contains(s, "rmdirSync") ||
		strings.Contains(s, "rimraf") || strings.Contains(s, "Remove-Item") || strings.Contains(s, "promises.rm") {
		for _, m := range apiRemoveTree.FindAllStringSubmatch(s, -1) {
			if criticalPath(m[1]) {
				e.deny("text removes " + truncate(m[1], 64) + " and everything under it")
				return true
			}
		}
	}
	if strings.Contains(s, "kill") {
		for _, re := range []*regexp.Regexp{apiKillPid, apiKillSig} {
			for _, m := range re.FindAllStringSubmatch(s, -1) {
				if n := pidWord(m[1]); n == "1" || n == "-1" {
					e.deny("text signals " + n + " (" + truncate(strings.TrimLeft(m[0], "( \t;{"), 48) + "): kills init or every process")
					return true
				}
			}
		}
	}
	if quotedDev(s) {
		for _, m := range apiDevWrite.FindAllStringSubmatch(s, -1) {
			dev, mode := m[1], m[2]
			if dev == "" || strings.Contains(m[0], `"+<`) || strings.Contains(m[0], `'+<`) ||
				strings.Contains(m[0], `">`) || strings.Contains(m[0], `'>`) || strings.Contains(m[0], `"+>`) {
				// perl's "+</dev/sda", ">/dev/sda": the mode is in the name.
				mode = "w"
			}
			if dev == "" {
				dev = m[3]
			}
			if strings.HasPrefix(m[0], "writeFileSync") || strings.HasPrefix(m[0], "createWriteStream") ||
				strings.HasPrefix(m[0], "appendFileSync") || strings.HasPrefix(m[0], "File.write") {
				mode = "w"
			}
			writes := strings.ContainsAny(mode, "wa+") || strings.Contains(mode, "O_WRONLY") || strings.Contains(mode, "O_RDWR")
			if writes && blockTarget(dev) {
				e.deny("text writes block device " + dev)
				return true
			}
		}
		// os.open('/dev/sda', os.O_WRONLY|…): the flags follow the path.
		if i := strings.Index(s, "O_WRONLY"); i >= 0 || strings.Contains(s, "O_RDWR") {
			for _, m := range apiDevWrite.FindAllStringSubmatch(s, -1) {
				if blockTarget(m[1]) {
					e.deny("text opens block device " + m[1] + " for writing")
					return true
				}
			}
		}
	}
	if strings.Contains(s, "reboot") || strings.Contains(s, "Reboot") || strings.Contains(s, "REBOOT") || strings.Contains(s, "RB_") || strings.Contains(s, "syscall") {
		if apiReboot.MatchString(s) {
			e.deny("text calls the kernel's reboot directly")
			return true
		}
	}
	return false
}

// quotedDev reports whether a quote opens a string that starts with
// /dev/, past a mode (+<, >, >>, +>) and blanks: every match of
// apiDevWrite holds one, and most texts that name /dev/ (2>/dev/null)
// do not, so the expression is not run over them.
func quotedDev(s string) bool {
	for i := strings.Index(s, "/dev/"); i >= 0; {
		j := i
		for j > 0 && strings.IndexByte(" \t\n\f\r", s[j-1]) >= 0 {
			j--
		}
		for _, mode := range []string{"", ">", ">>", "+<", "+>"} {
			if k := j - len(mode); k > 0 && s[k:j] == mode && (s[k-1] == '"' || s[k-1] == '\'') {
				return true
			}
		}
		next := strings.Index(s[i+1:], "/dev/")
		if next < 0 {
			break
		}
		i += 1 + next
	}
	return false
}
