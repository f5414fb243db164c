package handlers

import (
	"crypto/rand"
	"errors"
	"fmt"
	"io/fs"
	"log/slog"
	"os"
)

// The key file holds the keys that sign and encrypt the session cookie:
// sessionAuthKeyLen bytes of HMAC key, then sessionEncKeyLen bytes of AES
// key. It lives beside the database, never in it, so that a copy of the
// database or a backup of it cannot be used to forge a cookie.
const (
	sessionAuthKeyLen = 64
	sessionEncKeyLen  = 32
)

// DefaultKeyFile is the key file used with the database at dbPath when
// Config.KeyFile is empty: the database's path with ".keys" added.
func DefaultKeyFile(dbPath string) string { return dbPath + ".keys" }

// loadKeys reads the session keys from path, creating the file (mode 0600,
// fresh random keys) when it does not exist. A file that others may read
// is used, with a warning in the log. Errors: the file cannot be read or
// created, or has the wrong length.
func loadKeys(path string, log *slog.Logger) (authKey, encKey []byte, err error) {
	const n = sessionAuthKeyLen + sessionEncKeyLen
	b, err := os.ReadFile(path)
	if errors.Is(err, fs.ErrNotExist) {
		b, err = createKeys(path, n)
		if errors.Is(err, fs.ErrExist) { // made by another process just now
			b, err = os.ReadFile(path)
		}
	}
	if err != nil {
		return nil, nil, fmt.Errorf("session key file: %w", err)
	}
	if len(b) != n {
		return nil, nil, fmt.Errorf("session key file %s: %d bytes, want %d; delete it to make new keys (everyone signs in again)", path, len(b), n)
	}
	if info, err := os.Stat(path); err == nil && info.Mode().Perm()&0o077 != 0 {
		log.Warn("the session key file can be read by others; chmod 600 it", "file", path, "mode", info.Mode().Perm().String()) // not shown
	}
	return b[:sessionAuthKeyLen], b[sessionAuthKeyLen:], nil
}

// createKeys writes n random bytes to the new file path (mode 0600) and
// syncs it. Errors: fs.ErrExist when the file exists.
func createKeys(path string, n int) ([]byte, error) {
	b := make([]byte, n)
	if _, err := rand.Read(b); err != nil {
		return nil, err
	}
	return b, writeNewFile(path, b)
}

// writeNewFile writes b to the new file path (mode 0600) and syncs it.
// Errors: fs.ErrExist when the file exists.
func writeNewFile(path string, b []byte) error {
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o600)
	if err != nil {
		return err
	}
	if _, err := f.Write(b); err != nil {
		f.Close()
		os.Remove(path)
		return err
	}
	if err := errors.Join(f.Sync(), f.Close()); err != nil {
		os.Remove(path)
		return err
	}
	return nil
}
