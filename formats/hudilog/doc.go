// Package hudilog reads the blocks of an Apache Hudi log file, the files a
// merge-on-read file slice keeps its changes in
// (.<fileId>_<instant>.log.<version>_<writeToken>). It frames the blocks and
// decodes their headers, delete blocks and command blocks; the records of a
// data block stay encoded (an Avro data block's records are handed out as an
// Avro object container, a Parquet data block is a Parquet file) for the
// data file decoders to read. It knows nothing of tables or timelines.
//
// The layout of a block (Hudi docs, "File Layouts" and the log format of
// HoodieLogFormat version 1; all integers big-endian):
//
//	magic        "#HUDI#" (6 bytes)
//	block size   int64: the bytes after this field up to the block's end
//	version      int32: the log format version (1)
//	block type   int32: 0 command, 1 delete, 2 corrupt, 3 Avro data,
//	             4 HFile data, 5 Parquet data, 6 CDC data
//	header       metadata map: int32 count, then per entry int32 key
//	             (0 INSTANT_TIME, 1 TARGET_INSTANT_TIME, 2 SCHEMA,
//	             3 COMMAND_BLOCK_TYPE, 4 COMPACTED_BLOCK_TIMES,
//	             5 RECORD_POSITIONS, 6 BLOCK_IDENTIFIER, 7 IS_PARTIAL, …),
//	             int32 length, UTF-8 bytes
//	content size int64
//	content      content size bytes
//	footer       metadata map, as the header
//	block length int64: the bytes of the block before this field, magic
//	             included (a reverse pointer)
//
// Content of an Avro data block: int32 version, int32 record count, then per
// record int32 length and the record in Avro binary encoding of the writer
// schema (the SCHEMA header). Of a delete block: int32 version, int32
// length, then (version 3) the Avro binary encoding of
// HoodieDeleteRecordList, whose records hold the record key, partition path
// and ordering value; versions 1 and 2 are Java serialization and are
// refused. A command block carries its command in the COMMAND_BLOCK_TYPE
// header (0: rollback of the blocks written by TARGET_INSTANT_TIME).
//
// Every length read from the file is checked against the bytes that remain
// and a cap ([Limits]) before anything is allocated from it; malformed bytes
// give a [*CorruptError] (matching [ErrCorrupt]) naming the file and the
// offset.
package hudilog
