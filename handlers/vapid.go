package handlers

import (
	"crypto/ecdh"
	"crypto/rand"
	"encoding/base64"
	"errors"
	"fmt"
	"io/fs"
	"log/slog"
	"os"
)

// VAPIDKeyFile is the file beside the session key file keyFile that holds
// the server's VAPID key (RFC 8292), which signs every push notification
// it sends: keyFile with ".vapid" added. Like the session keys it is
// never in the database, so neither backups nor replicas carry it.
func VAPIDKeyFile(keyFile string) string { return keyFile + ".vapid" }

// vapidKeys is the server's VAPID key pair, base64url without padding as
// webpush-go and the browsers' applicationServerKey take them: the P-256
// private scalar (32 bytes) and the uncompressed public point (65 bytes).
type vapidKeys struct {
	Private, Public string
}

// loadVAPIDKeys reads the VAPID private key (32 bytes) from path, creating
// the file (mode 0600, a new key) when it does not exist. A file that
// others may read is used, with a warning in the log. Errors: the file
// cannot be read or created, or holds no P-256 private key.
func loadVAPIDKeys(path string, log *slog.Logger) (vapidKeys, error) {
	b, err := os.ReadFile(path)
	if errors.Is(err, fs.ErrNotExist) {
		var k *ecdh.PrivateKey
		if k, err = ecdh.P256().GenerateKey(rand.Reader); err == nil {
			b = k.Bytes()
			err = writeNewFile(path, b)
			if errors.Is(err, fs.ErrExist) { // made by another process just now
				b, err = os.ReadFile(path)
			}
		}
	}
	if err != nil {
		return vapidKeys{}, fmt.Errorf("VAPID key file: %w", err)
	}
	k, err := ecdh.P256().NewPrivateKey(b)
	if err != nil {
		return vapidKeys{}, fmt.Errorf("VAPID key file %s: no P-256 private key (%v); delete it to make a new one (every device asks for notifications again)", path, err)
	}
	if info, err := os.Stat(path); err == nil && info.Mode().Perm()&0o077 != 0 {
		log.Warn("the VAPID key file can be read by others; chmod 600 it", "file", path, "mode", info.Mode().Perm().String()) // not shown
	}
	enc := base64.RawURLEncoding
	return vapidKeys{Private: enc.EncodeToString(k.Bytes()), Public: enc.EncodeToString(k.PublicKey().Bytes())}, nil
}
