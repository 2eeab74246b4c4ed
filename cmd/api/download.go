package main

import (
	"context"
	"io"
	"mime"
	"net/http"
	"os"
	"path/filepath"
	"strconv"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/a2e-automation/app/domain"
	"github.com/a2e-automation/app/eventstore"
)

// The Windows installer served from DOWNLOADS_DIR (spec section 9).
const (
	windowsVersion   = "2.4.0"
	windowsInstaller = "A2E-Automation-Setup-" + windowsVersion + ".exe"
)

// downloadWriteTimeout bounds sending the installer.
const downloadWriteTimeout = 15 * time.Minute

// handleDownloadWindows serves the Windows installer to a signed-in seller
// with an active subscription, recording SoftwareDownloaded; without one
// the domain refuses with the spec's 403.
func handleDownloadWindows(d Deps) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		f, err := os.Open(filepath.Join(d.Config.DownloadsDir, windowsInstaller))
		if err != nil {
			d.Log.ErrorContext(r.Context(), "installer missing", "dir", d.Config.DownloadsDir, "file", windowsInstaller, "err", err)
			writeError(w, r, d.Log, errStatus(http.StatusServiceUnavailable, "The download is not available right now. Please try again later."))
			return
		}
		defer f.Close()
		info, err := f.Stat()
		if err != nil {
			writeError(w, r, d.Log, err)
			return
		}
		id := currentSession(r.Context()).AccountID
		res, err := d.Accounts.Update(r.Context(), id, eventstore.UpdateOptions{Metadata: metadata(r, "account:"+id)},
			func(_ context.Context, _ pgx.Tx, a *domain.Account, now time.Time) (any, error) {
				return nil, a.RecordDownload("windows", windowsVersion, now)
			})
		if err != nil {
			writeError(w, r, d.Log, err)
			return
		}
		awaitProjections(d, r, res.LastPosition)
		// The installer may take minutes on a slow line: past the server's
		// write timeout, which bounds every other answer.
		_ = http.NewResponseController(w).SetWriteDeadline(time.Now().Add(downloadWriteTimeout))
		h := w.Header()
		h.Set("Content-Type", "application/vnd.microsoft.portable-executable")
		h.Set("Content-Disposition", mime.FormatMediaType("attachment", map[string]string{"filename": windowsInstaller}))
		h.Set("Content-Length", strconv.FormatInt(info.Size(), 10))
		h.Set("Cache-Control", "no-store")
		h.Set("X-Content-Type-Options", "nosniff")
		if _, err := io.Copy(w, f); err != nil {
			d.Log.WarnContext(r.Context(), "download interrupted", "account", id, "err", err)
		}
	}
}
