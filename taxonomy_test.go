package lakecat_test

import (
	"errors"
	"testing"

	"github.com/lakecat/lakecat"
	"github.com/lakecat/lakecat/evolve"
	"github.com/lakecat/lakecat/formats/avro"
	"github.com/lakecat/lakecat/formats/orc"
	"github.com/lakecat/lakecat/formats/parquet"
	"github.com/lakecat/lakecat/formats/puffin"
	"github.com/lakecat/lakecat/project"
	"github.com/lakecat/lakecat/reader"
	"github.com/lakecat/lakecat/schema"
	"github.com/lakecat/lakecat/storage"
	"github.com/lakecat/lakecat/table"
	"github.com/lakecat/lakecat/table/iceberg"
	"github.com/lakecat/lakecat/table/paimon"
)

// TestPackageSentinels pins the table of the package documentation: each
// package sentinel matches its class and only it, and keeps its own text.
func TestPackageSentinels(t *testing.T) {
	cases := []struct {
		err   error
		class error
		text  string
	}{
		{parquet.ErrCorrupt, lakecat.ErrCorrupt, "parquet: corrupt file"},
		{&parquet.CorruptError{Offset: 4, Section: "footer", Err: errors.New("short")}, lakecat.ErrCorrupt, "parquet: corrupt footer at offset 4: short"},
		{parquet.ErrUnsupported, lakecat.ErrUnsupported, "parquet: unsupported feature"},
		{orc.ErrCorrupt, lakecat.ErrCorrupt, "orc: corrupt file"},
		{&orc.CorruptError{Offset: 3, Section: "postscript", Err: errors.New("short")}, lakecat.ErrCorrupt, "orc: postscript at offset 3: short"},
		{orc.ErrTooLarge, lakecat.ErrCorrupt, "orc: size above limit"},
		{orc.ErrUnsupported, lakecat.ErrUnsupported, "orc: unsupported feature"},
		{orc.ErrUnsupportedCodec, lakecat.ErrUnsupported, "orc: unsupported compression codec"},
		{avro.ErrCorrupt, lakecat.ErrCorrupt, "avro: corrupt file"},
		{avro.ErrUnsupported, lakecat.ErrUnsupported, "avro: unsupported feature"},
		{schema.ErrInvalidSchema, lakecat.ErrCorrupt, "schema: invalid schema"},
		{schema.ErrUnknownType, lakecat.ErrUnsupported, "unknown type"},
		{schema.ErrColumnNotFound, lakecat.ErrNotFound, "schema: column not found"},
		{table.ErrListOnly, lakecat.ErrInvalidArgument, "table: scan planned to list files, not to read rows"},
		{reader.ErrUnknownFormat, lakecat.ErrUnsupported, "reader: unknown file format"},
		{reader.ErrBadMagic, lakecat.ErrCorrupt, "reader: damaged magic bytes"},
		{reader.ErrCorruptDeleteFile, lakecat.ErrCorrupt, "reader: corrupt delete file"},
		{reader.ErrEqualityField, lakecat.ErrUnsupported, "reader: equality delete field cannot be matched"},
		{puffin.ErrCorrupt, lakecat.ErrCorrupt, "puffin: corrupt file"},
		{reader.ErrNoFieldIDs, lakecat.ErrIncompatibleSchema, "reader: file has no field ids; supply a name mapping or the file's schema"},
		{project.ErrIncompatibleType, lakecat.ErrIncompatibleSchema, "incompatible type"},
		{project.ErrValueOutOfRange, lakecat.ErrIncompatibleSchema, "value does not fit the read type"},
		{project.ErrInvalidValue, lakecat.ErrIncompatibleSchema, "invalid value"},
		{project.ErrRequiredFieldMissing, lakecat.ErrMissingRequiredField, "missing required field"},
		{project.ErrNullInRequiredField, lakecat.ErrMissingRequiredField, "null in a required field"},
		{project.ErrBatchLayout, lakecat.ErrInvalidArgument, "record batch does not match the file projection"},
		{evolve.ErrNotFound, lakecat.ErrNotFound, "column not found"},
		{evolve.ErrIncompatibleType, lakecat.ErrIncompatibleSchema, "incompatible type change"},
		{evolve.ErrRequiredColumn, lakecat.ErrIncompatibleSchema, "required column needs an initial-default"},
		{evolve.ErrExists, lakecat.ErrConflict, "column already exists"},
		{evolve.ErrDeleted, lakecat.ErrNotFound, "column is deleted"},
		{evolve.ErrAmbiguous, lakecat.ErrInvalidArgument, "ambiguous column name"},
		{evolve.ErrIdentifierField, lakecat.ErrIncompatibleSchema, "column is an identifier field"},
		{evolve.ErrPartitionSource, lakecat.ErrIncompatibleSchema, "column is a partition source"},
		{evolve.ErrKeyColumn, lakecat.ErrIncompatibleSchema, "column is a partition key or primary key"},
		{evolve.ErrMoveSelf, lakecat.ErrInvalidArgument, "column moved relative to itself"},
		{evolve.ErrMoveScope, lakecat.ErrInvalidArgument, "columns of a move are in different structs"},
		{evolve.ErrInvalidChange, lakecat.ErrInvalidArgument, "invalid change"},
		{evolve.ErrIncompatibleSchema, lakecat.ErrIncompatibleSchema, "incompatible schema"},
		{evolve.ErrNoCurrentSchema, lakecat.ErrCorrupt, "evolve: table metadata has no current schema"},
		{evolve.ErrNoChanges, lakecat.ErrInvalidArgument, "evolve: schema update changes nothing"},
		{evolve.ErrInvalidFlag, lakecat.ErrInvalidArgument, "evolve: invalid change flag"},
		{evolve.ErrUnsupportedFormat, lakecat.ErrUnsupported, "evolve: table format cannot be evolved"},
		{table.ErrDeleteFiles, lakecat.ErrUnsupported, "table: table has delete files"},
		{table.ErrPrimaryKeyTable, lakecat.ErrUnsupported, "table: primary-key table needs merge on read"},
		{table.ErrMergeOnRead, lakecat.ErrUnsupported, "table: merge-on-read table has log files"},
		{table.ErrInvalidOption, lakecat.ErrInvalidArgument, "table: option does not apply to this table format"},
		{evolve.ErrCommitConflict, lakecat.ErrConflict, "evolve: commit conflict"},
		{storage.ErrTransient, lakecat.ErrUnavailable, "storage: transient error"},
		{table.ErrNotATable, lakecat.ErrNotFound, "table: not an Iceberg, Paimon or Hudi table"},
		{iceberg.ErrNoMetadata, lakecat.ErrNotFound, "iceberg: no table metadata found"},
		{iceberg.ErrBadVersionHint, lakecat.ErrCorrupt, "iceberg: version hint names a missing metadata file"},
		{paimon.ErrNoSchema, lakecat.ErrNotFound, "paimon: no schema found"},
	}
	for _, c := range cases {
		if got := lakecat.ClassOf(c.err); got != c.class {
			t.Errorf("%q: class %v, want %v", c.err, got, c.class)
		}
		if c.err.Error() != c.text {
			t.Errorf("text %q, want %q", c.err, c.text)
		}
	}
}
