package main

import (
	"bufio"
	"context"
	"io"
	"log/slog"
	"sync"
	"time"
)

// logFlushEvery is how long (at most) a line of the log waits in memory
// before it is written: under load, the access log's lines go out many at
// a time instead of one write each.
const logFlushEvery = 100 * time.Millisecond

// accessLogMessage is the message of the access log's lines (see
// handlers' observe), the only ones the buffer holds back.
const accessLogMessage = "request"

// bufferedLog is a writer that holds what is written for up to
// logFlushEvery (or until 64 KiB wait) and then writes it to the writer
// underneath in one go. Close writes what waits and stops the timer.
type bufferedLog struct {
	mu    sync.Mutex
	w     *bufio.Writer
	timer *time.Timer // set while something waits
	done  bool
}

func newBufferedLog(w io.Writer) *bufferedLog {
	return &bufferedLog{w: bufio.NewWriterSize(w, 64<<10)}
}

// Write keeps p (one line of the log) for the next flush.
func (b *bufferedLog) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.done {
		n, err := b.w.Write(p)
		if err == nil {
			err = b.w.Flush()
		}
		return n, err
	}
	n, err := b.w.Write(p)
	if b.timer == nil && b.w.Buffered() > 0 {
		b.timer = time.AfterFunc(logFlushEvery, func() { _ = b.Flush() })
	}
	return n, err
}

// Flush writes what waits.
func (b *bufferedLog) Flush() error {
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.timer != nil {
		b.timer.Stop()
		b.timer = nil
	}
	return b.w.Flush()
}

// Close writes what waits; later lines are written at once.
func (b *bufferedLog) Close() error {
	err := b.Flush()
	b.mu.Lock()
	b.done = true
	b.mu.Unlock()
	return err
}

// urgentFlush is a log handler that leaves the access log's lines (the
// message "request", at most a few a request) to the buffer and writes
// any other line (the server starting, an upgrade's backup, a warning, an
// error), and everything before it, at once.
type urgentFlush struct {
	slog.Handler
	buf *bufferedLog
}

func (h urgentFlush) Handle(ctx context.Context, r slog.Record) error {
	err := h.Handler.Handle(ctx, r)
	if r.Level >= slog.LevelWarn || r.Message != accessLogMessage {
		if ferr := h.buf.Flush(); err == nil {
			err = ferr
		}
	}
	return err
}

func (h urgentFlush) WithAttrs(attrs []slog.Attr) slog.Handler {
	return urgentFlush{h.Handler.WithAttrs(attrs), h.buf}
}

func (h urgentFlush) WithGroup(name string) slog.Handler {
	return urgentFlush{h.Handler.WithGroup(name), h.buf}
}
