package remotefs

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"path"
)

// Mkdir creates the directory p with mode, from inside its parent (cd,
// then a relative name, as Write does); an existing p of any type is
// fs.ErrExist. mkdir(2) never follows a symlink at p.
func (e *Exec) Mkdir(ctx context.Context, p string, mode fs.FileMode) error {
	dir, name := path.Split(p)
	if name == "" || !path.IsAbs(p) {
		return &fs.PathError{Op: "mkdir", Path: p, Err: errors.New("needs an absolute path with a final name")}
	}
	script := "cd -- " + q(dir) + " || exit " + itoa(codeCD) + "\np=" + q("./"+name) + "\n" +
		"if [ -e \"$p\" ] || [ -h \"$p\" ]; then exit " + itoa(codeExists) + "; fi\n" +
		fmt.Sprintf("exec mkdir -m %04o -- \"$p\"", mode.Perm())
	_, x, err := e.call(ctx, script, nil, 256)
	if err == nil {
		switch x.Code {
		case 0:
		case codeExists:
			err = fs.ErrExist
		case codeCD:
			err = failure("cd", x)
		default:
			err = failure("mkdir", x)
		}
	}
	if err != nil {
		return &fs.PathError{Op: "mkdir", Path: p, Err: err}
	}
	return nil
}

// Remove unlinks p, which must not be a directory; rm removes a symlink
// itself.
func (e *Exec) Remove(ctx context.Context, p string) error {
	dir, name := path.Split(p)
	if name == "" || !path.IsAbs(p) {
		return &fs.PathError{Op: "remove", Path: p, Err: errors.New("needs an absolute path with a final name")}
	}
	script := "cd -- " + q(dir) + " || exit " + itoa(codeCD) + "\np=" + q("./"+name) + "\n" +
		"if [ -d \"$p\" ] && [ ! -h \"$p\" ]; then exit " + itoa(codeType) + "; fi\n" +
		"exec rm -- \"$p\""
	_, x, err := e.call(ctx, script, nil, 256)
	if err == nil {
		switch x.Code {
		case 0:
		case codeType:
			err = errors.New("is a directory")
		case codeCD:
			err = failure("cd", x)
		default:
			err = failure("rm", x)
		}
	}
	if err != nil {
		return &fs.PathError{Op: "remove", Path: p, Err: err}
	}
	return nil
}
