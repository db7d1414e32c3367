package main

import (
	"fmt"
	"os"
	"testing"
)

// harnessTB lets the harness use internal/sshd, whose Start takes a
// testing.TB, outside a test: Fatal and Skip end the current row through
// a panic that guard recovers, and cleanups run at close. Only the methods
// internal/sshd calls are implemented; the embedded nil interface panics
// on any other, which a change to that package would show at once.
type harnessTB struct {
	testing.TB
	dir      string
	cleanups []func()
}

// abort is a Fatal or Skip from inside internal/sshd.
type abort struct{ msg string }

func newTB(dir string) *harnessTB { return &harnessTB{dir: dir} }

func (h *harnessTB) Helper()                        {}
func (h *harnessTB) Errorf(format string, a ...any) { panic(abort{fmt.Sprintf(format, a...)}) }
func (h *harnessTB) Fatalf(format string, a ...any) { panic(abort{fmt.Sprintf(format, a...)}) }
func (h *harnessTB) Skip(a ...any)                  { panic(abort{fmt.Sprint(a...)}) }
func (h *harnessTB) Cleanup(f func())               { h.cleanups = append(h.cleanups, f) }
func (h *harnessTB) TempDir() string {
	d, err := os.MkdirTemp(h.dir, "tb-")
	if err != nil {
		panic(abort{err.Error()})
	}
	return d
}

// close runs the cleanups, newest first.
func (h *harnessTB) close() {
	for i := len(h.cleanups) - 1; i >= 0; i-- {
		h.cleanups[i]()
	}
	h.cleanups = nil
}

// guard runs f and turns an abort from harnessTB into an error.
func guard(f func()) (err error) {
	defer func() {
		if r := recover(); r != nil {
			a, ok := r.(abort)
			if !ok {
				panic(r)
			}
			err = fmt.Errorf("%s", a.msg)
		}
	}()
	f()
	return nil
}
