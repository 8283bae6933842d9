package hudilog_test

import (
	"bytes"
	"fmt"
	"io"

	"github.com/lakecat/lakecat/formats/hudilog"
	"github.com/lakecat/lakecat/internal/hudiwrite"
)

// Reading the blocks of a log file: a delete block, then a command block
// that rolls it back.
func ExampleReader() {
	del, _ := hudiwrite.DeleteBlock("20240101000000002", []hudiwrite.Delete{{Key: "k1", Ordering: int64(7)}})
	file := hudiwrite.Encode(del, hudiwrite.Rollback("20240101000000003", "20240101000000002"))

	r := hudilog.NewReader(bytes.NewReader(file), int64(len(file)), "log", hudilog.Limits{})
	for {
		blk, err := r.Next()
		if err == io.EOF {
			break
		}
		if err != nil {
			fmt.Println(err)
			return
		}
		fmt.Printf("%s block of instant %s at offset %d\n", blk.Type, blk.Instant(), blk.Offset)
		switch blk.Type {
		case hudilog.DeleteBlock:
			recs, _ := hudilog.DeleteRecords(blk, "log")
			for _, d := range recs {
				fmt.Printf("  delete %s (ordering %d)\n", d.Key, d.Ordering.Int)
			}
		case hudilog.CommandBlock:
			fmt.Printf("  rolls back %s\n", blk.Header[hudilog.TargetInstantTime])
		}
	}
	// Output:
	// delete block of instant 20240101000000002 at offset 0
	//   delete k1 (ordering 7)
	// command block of instant 20240101000000003 at offset 89
	//   rolls back 20240101000000002
}
