// Command lakecat prints the rows of Parquet and ORC data files of evolved
// lakehouse tables in the table's current schema, with columns matched by
// field id.
//
//	lakecat cat [PATH ...] [--schema S.json] [--limit N] [--format table|jsonl|csv|arrow]
//	lakecat schema PATH
//	lakecat plan FILE --schema S.json
//
// With no PATH, `lakecat cat` reads the bundled demo table.
//
// Errors are one line on stderr. Exit codes (the error classes of package
// lakecat):
//
//	0    success
//	1    any other error (storage I/O, a bug)
//	2    usage error (flags, arguments)
//	3    corrupt input (lakecat.ErrCorrupt: a data file, manifest or metadata that does not follow its format, or a size above a limit)
//	4    unsupported feature (lakecat.ErrUnsupported)
//	5    incompatible schema or missing required field (lakecat.ErrIncompatibleSchema, lakecat.ErrMissingRequiredField)
//	6    not found (lakecat.ErrNotFound: a file, table, snapshot or column)
//	7    permission denied (lakecat.ErrPermission: credentials refused by a catalog or store, a table path outside the allowed locations)
//	8    conflict (lakecat.ErrConflict: a commit lost to a concurrent change, or its outcome unknown)
//	9    unavailable (lakecat.ErrUnavailable: a service still failing after the last retry)
//	130  canceled (interrupt or SIGTERM; lakecat.ErrCanceled)
package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/signal"
	"runtime/debug"
	"strings"
	"syscall"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"

	"github.com/lakecat/lakecat"
)

type exitCode int

const (
	exitOK    exitCode = 0
	exitError exitCode = 1
	exitUsage exitCode = 2
	// exitCorrupt .. exitCanceled: see the package documentation and
	// classExit.
	exitCorrupt     exitCode = 3
	exitUnsupported exitCode = 4
	exitSchema      exitCode = 5
	exitNotFound    exitCode = 6
	exitPermission  exitCode = 7
	exitConflict    exitCode = 8
	exitUnavailable exitCode = 9
	exitCanceled    exitCode = 130
)

// classExit maps the error classes of package lakecat to exit codes.
var classExit = map[error]exitCode{
	lakecat.ErrCorrupt:              exitCorrupt,
	lakecat.ErrUnsupported:          exitUnsupported,
	lakecat.ErrIncompatibleSchema:   exitSchema,
	lakecat.ErrMissingRequiredField: exitSchema,
	lakecat.ErrNotFound:             exitNotFound,
	lakecat.ErrPermission:           exitPermission,
	lakecat.ErrConflict:             exitConflict,
	lakecat.ErrUnavailable:          exitUnavailable,
	lakecat.ErrInvalidArgument:      exitUsage,
	lakecat.ErrCanceled:             exitCanceled,
}

// factory carries what every verb needs from the process.
type factory struct {
	Stdout io.Writer
	Stderr io.Writer
	// Ctx is the context of the command (nil: context.Background()); main
	// cancels it on an interrupt or SIGTERM.
	Ctx context.Context
	// SetMemoryLimit, when set (by main: debug.SetMemoryLimit), is called
	// with the soft memory limit for a table scan; tests leave it nil so
	// that the test process keeps its own.
	SetMemoryLimit func(int64) int64
	// Verbose is --verbose: what the object-store SDKs log goes to Stderr
	// ([factory.logger]).
	Verbose bool
}

// usageError marks an error in the command line itself.
type usageError struct{ err error }

func (u usageError) Error() string { return u.err.Error() }
func (u usageError) Unwrap() error { return u.err }

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	code := run(os.Args[1:], &factory{Stdout: os.Stdout, Stderr: os.Stderr, Ctx: ctx, SetMemoryLimit: debug.SetMemoryLimit})
	stop()
	os.Exit(int(code))
}

// run executes one command line and returns its exit code; errors are
// printed to f.Stderr as one line.
func run(args []string, f *factory) exitCode {
	root := newRootCmd(f)
	root.SetArgs(args)
	ctx := f.Ctx
	if ctx == nil {
		ctx = context.Background()
	}
	err := root.ExecuteContext(ctx)
	if err == nil {
		return exitOK
	}
	msg := strings.ReplaceAll(err.Error(), "\n", " ")
	fmt.Fprintf(f.Stderr, "lakecat: %s\n", msg)
	var ue usageError
	if errors.As(err, &ue) || strings.HasPrefix(err.Error(), "unknown command ") {
		return exitUsage // cobra's unknown-command error has no type of its own
	}
	if code, ok := classExit[lakecat.ClassOf(err)]; ok {
		return code
	}
	return exitError
}

func newRootCmd(f *factory) *cobra.Command {
	root := &cobra.Command{
		Use:           "lakecat",
		Short:         "Read data files of evolved Iceberg, Paimon and Hudi tables in the table's current schema",
		SilenceUsage:  true,
		SilenceErrors: true,
	}
	root.SetOut(f.Stdout)
	root.SetErr(f.Stderr)
	root.SetFlagErrorFunc(func(c *cobra.Command, err error) error {
		return usageError{fmt.Errorf("%w (see '%s --help')", err, c.CommandPath())}
	})
	root.AddCommand(newCatCmd(f, nil), newSchemaCmd(f, nil), newPlanCmd(f, nil), newFilesCmd(f, nil), newEvolveCmd(f, nil))
	addCLIHabits(root, f)
	return root
}

func cobraArgs(v cobra.PositionalArgs) cobra.PositionalArgs {
	return func(c *cobra.Command, args []string) error {
		if err := v(c, args); err != nil {
			return usageError{err}
		}
		return emptyFlagValues(c)
	}
}

// nonEmptyFlags are the flags whose value must say something: given empty
// (`--where ""`), they would silently read everything.
var nonEmptyFlags = []string{"where", "columns", "schema", "file-schema", "name-mapping", "union-by-name", "output"}

// emptyFlagValues refuses a flag of nonEmptyFlags given with an empty or
// blank value.
func emptyFlagValues(c *cobra.Command) error {
	for _, name := range nonEmptyFlags {
		fl := c.Flags().Lookup(name)
		if fl == nil || !fl.Changed {
			continue
		}
		vals := []string{fl.Value.String()}
		if sv, ok := fl.Value.(pflag.SliceValue); ok {
			vals = sv.GetSlice()
		}
		for _, v := range vals {
			if strings.TrimSpace(v) == "" {
				return usageError{fmt.Errorf("--%s was given an empty value", name)}
			}
		}
		if len(vals) == 0 {
			return usageError{fmt.Errorf("--%s was given an empty value", name)}
		}
	}
	return nil
}

// onceString is a string flag value that may be given once: a second
// `--where` would otherwise silently replace the first.
type onceString struct {
	p   *string
	set bool
}

// stringOnce registers a string flag that refuses to be given twice.
func stringOnce(fl *pflag.FlagSet, p *string, name, usage string) {
	fl.Var(&onceString{p: p}, name, usage)
}

func (v *onceString) String() string {
	if v.p == nil {
		return ""
	}
	return *v.p
}

func (v *onceString) Set(s string) error {
	if v.set {
		return fmt.Errorf("given more than once (combine the filters with AND)")
	}
	v.set = true
	*v.p = s
	return nil
}

func (v *onceString) Type() string { return "string" }
