//go:build linux

package main

import (
	"errors"
	"fmt"
	"runtime"
	"sync"
	"unsafe"

	"github.com/ebitengine/purego"
)

// library is libchdb.so bound with purego, so the command builds with CGO_ENABLED=0.
// The signatures follow chdb.h of chDB 26.x; each symbol is checked when the library loads.
type library struct {
	connect      func(argc int32, argv unsafe.Pointer) unsafe.Pointer
	closeConn    func(conn unsafe.Pointer)
	queryN       func(conn unsafe.Pointer, query unsafe.Pointer, queryLen uintptr, format unsafe.Pointer, formatLen uintptr) unsafe.Pointer
	queryParamsN func(conn unsafe.Pointer, query unsafe.Pointer, queryLen uintptr, format unsafe.Pointer, formatLen uintptr,
		names unsafe.Pointer, nameLens unsafe.Pointer, values unsafe.Pointer, valueLens unsafe.Pointer, count uintptr) unsafe.Pointer
	resultBuffer       func(res unsafe.Pointer) unsafe.Pointer
	resultLength       func(res unsafe.Pointer) uintptr
	resultError        func(res unsafe.Pointer) string
	resultElapsed      func(res unsafe.Pointer) float64
	resultRowsRead     func(res unsafe.Pointer) uint64 // rows in the result
	resultBytesRead    func(res unsafe.Pointer) uint64 // bytes of the result, in memory
	storageRowsRead    func(res unsafe.Pointer) uint64
	storageBytesRead   func(res unsafe.Pointer) uint64
	resultRowsWritten  func(res unsafe.Pointer) uint64
	resultBytesWritten func(res unsafe.Pointer) uint64
	destroyResult      func(res unsafe.Pointer)
}

var (
	loadOnce   sync.Once
	loadedLib  *library
	loadedPath string
	loadErr    error
)

// loadLibrary opens libchdb.so once per process; the engine cannot be unloaded, so a
// second call returns the first library, and fails if it names a different file.
func loadLibrary(path string) (*library, error) {
	loadOnce.Do(func() {
		loadedPath = path
		loadedLib, loadErr = openLibrary(path)
	})
	if loadErr == nil && path != loadedPath {
		return nil, fmt.Errorf("libchdb already loaded from %s, cannot load %s", loadedPath, path)
	}
	return loadedLib, loadErr
}

func openLibrary(path string) (*library, error) {
	var handle uintptr
	err := withGoSignalHandlers(func() error {
		var err error
		handle, err = purego.Dlopen(path, purego.RTLD_NOW|purego.RTLD_LOCAL)
		return err
	})
	if err != nil {
		return nil, fmt.Errorf("loading %s: %w", path, err)
	}
	lib := &library{}
	symbols := []struct {
		name string
		fn   any
	}{
		{"chdb_connect", &lib.connect},
		{"chdb_close_conn", &lib.closeConn},
		{"chdb_query_n", &lib.queryN},
		{"chdb_query_with_params_n", &lib.queryParamsN},
		{"chdb_result_buffer", &lib.resultBuffer},
		{"chdb_result_length", &lib.resultLength},
		{"chdb_result_error", &lib.resultError},
		{"chdb_result_elapsed", &lib.resultElapsed},
		{"chdb_result_rows_read", &lib.resultRowsRead},
		{"chdb_result_bytes_read", &lib.resultBytesRead},
		{"chdb_result_storage_rows_read", &lib.storageRowsRead},
		{"chdb_result_storage_bytes_read", &lib.storageBytesRead},
		{"chdb_result_rows_written", &lib.resultRowsWritten},
		{"chdb_result_bytes_written", &lib.resultBytesWritten},
		{"chdb_destroy_query_result", &lib.destroyResult},
	}
	for _, s := range symbols {
		addr, err := purego.Dlsym(handle, s.name)
		if err != nil {
			return nil, fmt.Errorf("%s: symbol %s missing (needs chDB 26.x): %w", path, s.name, err)
		}
		purego.RegisterFunc(s.fn, addr)
	}
	return lib, nil
}

// conn is one chDB connection. A connection runs one query at a time; the caller
// serializes its use (see pool).
type conn struct {
	lib    *library
	handle unsafe.Pointer // chdb_connection* as chdb_connect returned it
	argv   [][]byte       // kept alive for the connection's lifetime
}

// open opens a connection on the engine. args are command-line style engine options,
// e.g. --path=/data; the first connection in a process boots the engine with them.
func (lib *library) open(args []string) (*conn, error) {
	c := &conn{lib: lib}
	ptrs := make([]*byte, 0, len(args)+2)
	var pin runtime.Pinner
	defer pin.Unpin()
	for _, a := range append([]string{"clickhouse"}, args...) {
		b := append([]byte(a), 0)
		c.argv = append(c.argv, b)
		pin.Pin(&b[0])
		ptrs = append(ptrs, &b[0])
	}
	argc := int32(len(ptrs))
	ptrs = append(ptrs, nil)
	err := withGoSignalHandlers(func() error {
		c.handle = lib.connect(argc, unsafe.Pointer(&ptrs[0]))
		return nil
	})
	if err != nil {
		if c.handle != nil {
			lib.closeConn(c.handle)
		}
		return nil, err
	}
	if c.handle == nil || *(*unsafe.Pointer)(c.handle) == nil {
		return nil, errors.New("chdb_connect failed (is another process using the data path?)")
	}
	return c, nil
}

// close closes the connection. Closing the last one shuts the engine down.
func (c *conn) close() error {
	if c.handle == nil {
		return nil
	}
	h := c.handle
	c.handle = nil
	return withGoSignalHandlers(func() error {
		c.lib.closeConn(h)
		return nil
	})
}

// result is a query's answer; data points into chDB's memory until free is called.
type result struct {
	lib          *library
	ptr          unsafe.Pointer
	data         []byte
	elapsed      float64
	resultRows   uint64
	rowsRead     uint64 // from storage
	bytesRead    uint64
	rowsWritten  uint64
	bytesWritten uint64
}

func (r *result) free() {
	if r.ptr != nil {
		r.lib.destroyResult(r.ptr)
		r.ptr = nil
		r.data = nil
	}
}

// queryParam is one {name:Type} query parameter value, as text.
type queryParam struct {
	name, value string
}

// query runs sql and returns its output in format (the default when sql has no FORMAT
// clause). A failed query returns an *exception and no result.
func (c *conn) query(sql, format string, params []queryParam) (*result, error) {
	if c.handle == nil {
		return nil, errors.New("chdb connection is closed")
	}
	h := *(*unsafe.Pointer)(c.handle)
	// The buffers are passed by pointer and length; a zero-length query still needs a
	// valid pointer.
	q := append([]byte(sql), 0)
	f := append([]byte(format), 0)
	var res unsafe.Pointer
	if len(params) == 0 {
		res = c.lib.queryN(h, unsafe.Pointer(&q[0]), uintptr(len(sql)), unsafe.Pointer(&f[0]), uintptr(len(format)))
	} else {
		res = c.queryWithParams(h, q, len(sql), f, len(format), params)
	}
	runtime.KeepAlive(q)
	runtime.KeepAlive(f)
	if res == nil {
		return nil, newException(codeStdException, "STD_EXCEPTION", "chdb_query returned no result")
	}
	if msg := c.lib.resultError(res); msg != "" {
		c.lib.destroyResult(res)
		return nil, parseException(msg)
	}
	r := &result{
		lib:          c.lib,
		ptr:          res,
		elapsed:      c.lib.resultElapsed(res),
		resultRows:   c.lib.resultRowsRead(res),
		rowsRead:     c.lib.storageRowsRead(res),
		bytesRead:    c.lib.storageBytesRead(res),
		rowsWritten:  c.lib.resultRowsWritten(res),
		bytesWritten: c.lib.resultBytesWritten(res),
	}
	if n := c.lib.resultLength(res); n > 0 {
		r.data = unsafe.Slice((*byte)(c.lib.resultBuffer(res)), n)
	}
	return r, nil
}

func (c *conn) queryWithParams(h unsafe.Pointer, q []byte, qLen int, f []byte, fLen int, params []queryParam) unsafe.Pointer {
	// All names and values live in one pinned buffer; the pointer arrays are uintptrs
	// into it, so no Go memory handed to C holds Go pointers.
	size := 1
	for _, p := range params {
		size += len(p.name) + len(p.value)
	}
	buf := make([]byte, 0, size)
	var pin runtime.Pinner
	defer pin.Unpin()
	buf = buf[:1]
	pin.Pin(&buf[0])
	buf = buf[:0]
	type span struct{ off, n int }
	names := make([]span, len(params))
	values := make([]span, len(params))
	for i, p := range params {
		names[i] = span{len(buf), len(p.name)}
		buf = append(buf, p.name...)
		values[i] = span{len(buf), len(p.value)}
		buf = append(buf, p.value...)
	}
	base := uintptr(unsafe.Pointer(unsafe.SliceData(buf[:1])))
	namePtrs := make([]uintptr, len(params))
	nameLens := make([]uintptr, len(params))
	valuePtrs := make([]uintptr, len(params))
	valueLens := make([]uintptr, len(params))
	for i := range params {
		namePtrs[i], nameLens[i] = base+uintptr(names[i].off), uintptr(names[i].n)
		valuePtrs[i], valueLens[i] = base+uintptr(values[i].off), uintptr(values[i].n)
	}
	res := c.lib.queryParamsN(h, unsafe.Pointer(&q[0]), uintptr(qLen), unsafe.Pointer(&f[0]), uintptr(fLen),
		unsafe.Pointer(&namePtrs[0]), unsafe.Pointer(&nameLens[0]),
		unsafe.Pointer(&valuePtrs[0]), unsafe.Pointer(&valueLens[0]), uintptr(len(params)))
	runtime.KeepAlive(buf)
	return res
}
