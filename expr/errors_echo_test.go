package expr_test

import (
	"errors"
	"strings"
	"testing"

	"github.com/lakecat/lakecat/expr"
)

// TestSyntaxErrorEchoCapped parses filters of 60 KB and 1 KB: the error
// repeats at most 200 bytes of the filter (around the offending character)
// and of its message, with "…" where they were cut; a short filter is
// repeated whole.
func TestSyntaxErrorEchoCapped(t *testing.T) {
	deep := strings.Repeat("(", 30000) + "a = 1" + strings.Repeat(")", 30000)
	_, err := expr.Parse(deep)
	var se *expr.SyntaxError
	if !errors.As(err, &se) || !errors.Is(err, expr.ErrSyntax) {
		t.Fatalf("error %v, want a *expr.SyntaxError", err)
	}
	msg := err.Error()
	if len(msg) > 300 || !strings.Contains(msg, "filter nested too deeply") || !strings.Contains(msg, `"…(((`) || !strings.Contains(msg, `(…"`) {
		t.Errorf("error of %d bytes: %s", len(msg), msg)
	}
	long := "a = 1 and b = " + strings.Repeat("x", 1000) + " )"
	_, err = expr.Parse(long)
	if err == nil || len(err.Error()) > 2*200+150 || !strings.Contains(err.Error(), "x…") {
		t.Errorf("long filter: error %v", err)
	}
	_, err = expr.Parse("a = ")
	if err == nil || !strings.Contains(err.Error(), `of "a = "`) {
		t.Errorf("short filter: error %v, want the filter repeated whole", err)
	}
}
