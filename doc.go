// Package lakecat holds what every lakecat package shares: the error
// classes. The library's entry points live in the subpackages (reader,
// schema, project, evolve, formats/parquet, formats/orc, formats/avro) and
// the command line in cmd/lakecat.
//
// # Errors
//
// Every error lakecat returns for one of the reasons below matches exactly
// one class under [errors.Is] — [ErrCorrupt], [ErrUnsupported],
// [ErrIncompatibleSchema], [ErrMissingRequiredField], [ErrNotFound],
// [ErrPermission], [ErrConflict], [ErrUnavailable], [ErrInvalidArgument] or
// [ErrCanceled] — and also the sentinel of the package that found it;
// [ClassOf] returns the class. Errors that fit no class (an I/O error of
// the storage, a usage mistake, a bug) match none. The packages' sentinels
// and their classes:
//
//	class                    package sentinel                                   exit code of lakecat
//	ErrCorrupt               parquet.ErrCorrupt (and *parquet.CorruptError)       3
//	                         orc.ErrCorrupt (and *orc.CorruptError), orc.ErrTooLarge
//	                         avro.ErrCorrupt
//	                         schema.ErrInvalidSchema (metadata JSON, Paimon schema-N)
//	                         Iceberg: corrupt manifest; Paimon: invalid snapshot,
//	                         corrupt manifest; Hudi: corrupt timeline;
//	                         hudilog.ErrCorrupt (and *hudilog.CorruptError),
//	                         reader.ErrCorruptLog, reader.ErrBadMagic
//	ErrUnsupported           parquet.ErrUnsupported, orc.ErrUnsupported,        4
//	                         orc.ErrUnsupportedCodec, avro.ErrUnsupported,
//	                         schema.ErrUnknownType, reader.ErrUnknownFormat;
//	                         reader.ErrEqualityField; Paimon: primary-key table,
//	                         deletion vectors, partition type; Hudi:
//	                         schema, hudi.ErrUnsupportedMerge,
//	                         hudilog.ErrUnsupported, reader.ErrUnsupportedLog,
//	                         reader.ErrMergeBudget
//	ErrIncompatibleSchema    project.ErrIncompatibleType,                       5
//	                         project.ErrValueOutOfRange, project.ErrInvalidValue,
//	                         reader.ErrNoFieldIDs, evolve.ErrIncompatibleType,
//	                         evolve.ErrRequiredColumn, evolve.ErrIncompatibleSchema,
//	                         evolve.ErrIdentifierField, evolve.ErrPartitionSource,
//	                         evolve.ErrKeyColumn
//	ErrMissingRequiredField  project.ErrRequiredFieldMissing                    5
//	ErrNotFound              fs.ErrNotExist, schema.ErrColumnNotFound,          6
//	                         evolve.ErrNotFound, evolve.ErrDeleted,
//	                         table.ErrNotATable; Iceberg: no metadata, snapshot
//	                         not found; Paimon: snapshot not found; Hudi: no
//	                         completed commit, not a Hudi table
//	ErrPermission            rest.ErrUnauthorized, rest.ErrForbidden            7
//	ErrConflict              rest.ErrCommitFailed, rest.ErrCommitStateUnknown,  8
//	                         rest.ErrConflict, evolve.ErrCommitConflict,
//	                         evolve.ErrExists
//	ErrUnavailable           rest.ErrUnavailable, storage.ErrTransient          9
//	ErrInvalidArgument       rest.ErrBadRequest, reader.ErrListOnly,            2
//	                         reader.ErrInvalidOption, expr.ErrSyntax,
//	                         expr.ErrType, evolve.ErrAmbiguous,
//	                         evolve.ErrInvalidChange, evolve.ErrInvalidFlag,
//	                         evolve.ErrNoChanges, project.ErrBatchLayout
//	ErrCanceled              context.Canceled                                   130
//	(none)                   anything else                                      1 (2: usage)
//
// A size read from a file above a limit of the decoders (see reader.Limits)
// is corrupt input: the error says which size, where, and the limit.
package lakecat
