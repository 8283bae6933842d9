package project

import (
	"sync"
	"sync/atomic"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/lakecat/lakecat/schema"
)

// Options configures [NewPlan].
type Options struct {
	// FileName names the data file in errors (a path or URI); it is not
	// opened.
	FileName string
	// Rules are the promotion rules of the table format; the zero value is
	// [IcebergV2].
	Rules Rules
	// Constants maps a read field id to a constant that replaces the field
	// for every row of the file, in the Go form documented on
	// [schema.Field] (identity-partition values, Iceberg table spec,
	// "Column Projection"). A nil value means null. A constant takes
	// precedence over a file column with the same field id.
	Constants map[int]any
}

// Plan is the projection of one data file's schema onto a read schema: for
// every read field, one action (take the file column, promote it, fill nulls,
// fill the initial-default, fill a constant, or rebuild a struct, list or map
// from its children), computed once by [NewPlan] and executed on each record
// batch by [Plan.Apply].
//
// A Plan is safe for concurrent use by multiple goroutines. Call
// [Plan.Release] when done with it: it caches null and default arrays, and
// keeps a few values buffers of promoted columns (taken back when the caller
// releases a batch) to reuse for the next batches; Release returns them to
// their allocator.
type Plan struct {
	fileName  string
	rules     Rules
	file      *schema.Schema
	read      *schema.Schema
	proj      *schema.Schema
	projArrow *arrow.Schema
	out       *arrow.Schema
	top       []*node
	// passThrough is set when every output column is an input column in the
	// same position with the same Arrow type: Apply only swaps the schema.
	passThrough bool
	dropped     []Dropped
	// pools recycle the values buffers of promotion loops between batches.
	pools pools
	// rowsFrom is the file leaf decoded only for the row count, when no
	// read field comes from the file.
	rowsFrom string

	// dictOut caches the output schema of batches with dictionary
	// columns (dictionary.go).
	dictOut atomic.Pointer[dictSchema]
}

// action is what a plan node does with its input.
type action uint8

const (
	actTake     action = iota // the file column as it is (same Arrow type)
	actRelabel                // the file column's buffers under the read Arrow type (zero copy)
	actCast                   // a promotion or cast that writes new values
	actNull                   // all nulls
	actDefault                // the initial-default in every row
	actConstant               // Options.Constants in every row
	actStruct                 // a struct rebuilt from its children over the file's validity
	actList                   // a list rebuilt around its element over the file's offsets
	actMap                    // a map rebuilt around its key and value over the file's offsets
)

// node is the plan for one read field.
type node struct {
	read     *schema.Field
	path     string        // dotted path of the read field
	file     *schema.Field // matched file field, nil when the file lacks it
	filePath string        // dotted path of the file field
	act      action
	src      int            // index among the parent's projected file children; -1 when none
	in       arrow.DataType // Arrow type of the projected file field
	out      arrow.DataType // Arrow type of the read field
	conv     convFunc       // for actCast
	pooled   bool           // conv is a loop whose values buffer may be recycled
	children []*node        // struct: read children; list: [element]; map: [key, value]
	value    any            // actDefault, actConstant
	// nullCheck: the read field is required and the file's optional, so
	// a null in the file is an error ([ErrNullInRequiredField]).
	nullCheck bool
	// levels is the file path of the leaf decoded only for the struct
	// validity or list lengths, when no requested child exists in the file.
	levels string

	mu        sync.Mutex
	cacheLen  int
	cacheData arrow.ArrayData
}

// FileProjection returns the pruned file schema to hand to a format decoder:
// the file's fields (same names, types, ids and nesting, file order) that the
// plan reads, and nothing else. File columns the read schema does not have
// are not in it. A struct or list none of whose requested children exist in
// the file keeps one leaf under it (the cheapest to decode), so that struct
// nulls and list lengths survive. Record batches handed to [Plan.Apply] must
// be laid out as [schema.ToArrowSchema] of this schema.
func (p *Plan) FileProjection() *schema.Schema { return p.proj }

// ArrowSchema returns the Arrow schema of the record batches [Plan.Apply]
// returns: [schema.ToArrowSchema] of the read schema.
func (p *Plan) ArrowSchema() *arrow.Schema { return p.out }

// ReadSchema returns the read schema the plan was built for.
func (p *Plan) ReadSchema() *schema.Schema { return p.read }

// FileSchema returns the file schema the plan was built for.
func (p *Plan) FileSchema() *schema.Schema { return p.file }

// Rules returns the promotion rules the plan was built with.
func (p *Plan) Rules() Rules { return p.rules }

// Release drops the null, default and constant arrays the plan caches
// between batches and gives the values buffers it keeps for reuse back to
// their allocator (buffers of batches still held go back when those are
// released). The plan stays usable; the next Apply builds them again.
func (p *Plan) Release() {
	p.pools.close()
	var walk func([]*node)
	walk = func(ns []*node) {
		for _, n := range ns {
			n.mu.Lock()
			if n.cacheData != nil {
				n.cacheData.Release()
				n.cacheData = nil
			}
			n.mu.Unlock()
			walk(n.children)
		}
	}
	walk(p.top)
}

func defaultAllocator(mem memory.Allocator) memory.Allocator {
	if mem == nil {
		return memory.DefaultAllocator
	}
	return mem
}
