package main

import (
	"fmt"
	"io"
	"log/slog"
	"mime"
	"net/http"
	"net/url"
	"strconv"
	"time"

	"github.com/a2e-automation/app/internal/config"
	"github.com/a2e-automation/app/internal/downloads"
)

// downloadWriteTimeout bounds sending the installer.
const downloadWriteTimeout = 15 * time.Minute

// checkInstaller is the start-up's look at DOWNLOADS_DIR. Production
// refuses to start without a real Windows installer there, as it refuses
// development's APP_SECRET: sellers would pay for a text file. Development
// serves whatever is there (the repository's placeholder), with a warning.
func checkInstaller(cfg config.Config, log *slog.Logger, installers *downloads.Installers) error {
	inst, err := installers.Latest()
	switch {
	case err != nil && !cfg.IsDevelopment():
		return fmt.Errorf("DOWNLOADS_DIR %q: %w; production serves the real Windows installer from it", cfg.DownloadsDir, err)
	case err != nil:
		log.Warn("no installer to download", "dir", cfg.DownloadsDir, "err", err)
	case inst.NotExecutable != nil:
		log.Warn("the installer is a placeholder, served in development only", "file", inst.Path, "problem", inst.NotExecutable.Error())
	default:
		log.Info("installer", "file", inst.Path, "version", inst.Version, "sizeBytes", inst.SizeBytes, "sha256", inst.SHA256)
	}
	return nil
}

// handleDownloadWindows serves the Windows installer to a signed-in seller.
// Without ?token= (the spec's route, a plain navigation) it records
// SoftwareDownloaded first, and the domain refuses an account without an
// active subscription with the spec's 403. With ?token= it serves a link
// from handleDownloadLink, which recorded the download already.
func handleDownloadWindows(d Deps) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		id := currentSession(r.Context()).AccountID
		var dl downloads.Download
		var err error
		if q := r.URL.Query(); q.Has("token") {
			dl, err = d.Downloads.OpenLink(id, q.Get("token"))
		} else {
			dl, err = d.Downloads.Start(r.Context(), id, metadata(r, "account:"+id))
		}
		if err != nil {
			writeError(w, r, d.Log, err)
			return
		}
		defer dl.File.Close()
		if dl.Recorded.LastPosition > 0 {
			awaitProjections(d, r, dl.Recorded.LastPosition)
		}
		sendInstaller(w, r, d, dl.File, dl.Installer)
	}
}

// handleDownloadLink records the download and answers a short-lived link
// to the file; the webapp navigates to it only after this succeeded, so a
// refusal is shown on the page instead of as raw JSON.
func handleDownloadLink(d Deps) http.HandlerFunc {
	type response struct {
		URL       string `json:"url"`
		FileName  string `json:"fileName"`
		ExpiresAt string `json:"expiresAt"`
	}
	return func(w http.ResponseWriter, r *http.Request) {
		id := currentSession(r.Context()).AccountID
		link, err := d.Downloads.Link(r.Context(), id, metadata(r, "account:"+id))
		if err != nil {
			writeError(w, r, d.Log, err)
			return
		}
		awaitProjections(d, r, link.Recorded.LastPosition)
		encode(w, http.StatusOK, response{
			URL:      "/api/download/windows?" + url.Values{"token": {link.Token}}.Encode(),
			FileName: link.Installer.FileName, ExpiresAt: link.ExpiresAt.Format(time.RFC3339),
		})
	}
}

// sendInstaller streams the open installer f as an attachment.
func sendInstaller(w http.ResponseWriter, r *http.Request, d Deps, f io.Reader, inst downloads.Installer) {
	if inst.NotExecutable != nil {
		d.Log.WarnContext(r.Context(), "serving a placeholder installer (development)", "file", inst.Path, "problem", inst.NotExecutable.Error())
	}
	// The installer may take minutes on a slow line: past the server's
	// write timeout, which bounds every other answer.
	_ = http.NewResponseController(w).SetWriteDeadline(time.Now().Add(downloadWriteTimeout))
	h := w.Header()
	h.Set("Content-Type", "application/vnd.microsoft.portable-executable")
	h.Set("Content-Disposition", mime.FormatMediaType("attachment", map[string]string{"filename": inst.FileName}))
	h.Set("Content-Length", strconv.FormatInt(inst.SizeBytes, 10))
	h.Set("Cache-Control", "no-store")
	h.Set("X-Content-Type-Options", "nosniff")
	// Exactly Content-Length bytes, even from a file still growing.
	if _, err := io.CopyN(w, f, inst.SizeBytes); err != nil {
		d.Log.WarnContext(r.Context(), "download interrupted", "account", currentSession(r.Context()).AccountID, "err", err)
	}
}
