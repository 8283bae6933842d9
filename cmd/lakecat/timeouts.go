//go:build !lakecat_local

package main

import (
	"fmt"
	"os"
	"time"

	"github.com/lakecat/lakecat/storage/blob"
)

// The environment variables that set the object-store request timeouts
// (blob.Timeouts), as Go durations ("90s", "2m"); unset or empty keeps the
// default (10 minutes a request, 30 seconds without a byte of a body), a
// negative duration turns the timeout off.
const (
	envRequestTimeout = "LAKECAT_REQUEST_TIMEOUT"
	envIdleTimeout    = "LAKECAT_IDLE_TIMEOUT"
)

// envTimeouts reads the request timeouts from the environment. A value
// that is not a duration, or is zero, is a usage error.
func envTimeouts() (blob.Timeouts, error) {
	var t blob.Timeouts
	for _, v := range []struct {
		name string
		dst  *time.Duration
	}{{envRequestTimeout, &t.Request}, {envIdleTimeout, &t.Idle}} {
		s := os.Getenv(v.name)
		if s == "" {
			continue
		}
		d, err := time.ParseDuration(s)
		if err != nil || d == 0 {
			return t, usageError{fmt.Errorf("%s=%q: want a duration such as 30s or 2m (negative: no timeout)", v.name, s)}
		}
		*v.dst = d
	}
	return t, nil
}
