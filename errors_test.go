package lakecat_test

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"testing"

	"github.com/lakecat/lakecat"
)

func TestClassOf(t *testing.T) {
	own := lakecat.NewSentinel(lakecat.ErrCorrupt, "x: corrupt")
	legacy := errors.New("y: not found")
	filed := lakecat.Classify(lakecat.ErrNotFound, legacy)
	cases := []struct {
		err  error
		want error
	}{
		{nil, nil},
		{errors.New("other"), nil},
		{own, lakecat.ErrCorrupt},
		{fmt.Errorf("reading f: %w", own), lakecat.ErrCorrupt},
		{filed, lakecat.ErrNotFound},
		{fmt.Errorf("w: %w", fs.ErrNotExist), lakecat.ErrNotFound},
		{fmt.Errorf("scan: %w", context.Canceled), lakecat.ErrCanceled},
		// Canceled wins over the class of a read cut short by it.
		{errors.Join(own, context.Canceled), lakecat.ErrCanceled},
		{lakecat.NewSentinel(lakecat.ErrUnsupported, "u"), lakecat.ErrUnsupported},
		{lakecat.NewSentinel(lakecat.ErrIncompatibleSchema, "i"), lakecat.ErrIncompatibleSchema},
		{lakecat.NewSentinel(lakecat.ErrMissingRequiredField, "m"), lakecat.ErrMissingRequiredField},
	}
	for _, c := range cases {
		if got := lakecat.ClassOf(c.err); got != c.want {
			t.Errorf("ClassOf(%v) = %v, want %v", c.err, got, c.want)
		}
	}
	if !errors.Is(filed, legacy) || filed.Error() != "y: not found" {
		t.Errorf("Classify lost the error: %v", filed)
	}
	if own.Error() != "x: corrupt" || errors.Is(own, lakecat.ErrNotFound) {
		t.Errorf("sentinel %q matches the wrong class", own)
	}
	if lakecat.Classify(lakecat.ErrCorrupt, own) != own {
		t.Error("Classify wrapped an error already in its class")
	}
}
