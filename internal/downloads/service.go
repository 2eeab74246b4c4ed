package downloads

import (
	"context"
	"fmt"
	"os"
	"time"

	"github.com/a2e-automation/app/domain"
	"github.com/a2e-automation/app/eventstore"
	"github.com/a2e-automation/app/internal/accounts"
)

// The answers a seller sees.
const (
	MsgUnavailable = "The download is not available right now. Please try again later."
	MsgLinkExpired = "This download link has expired. Start the download again from the Download page."
)

// Service runs the downloads of the desktop software.
type Service struct {
	installers *Installers
	accounts   *accounts.Repository
	links      links
}

// NewService returns a Service serving installers, recording downloads on
// repo's accounts; secret (APP_SECRET) keys the download links.
func NewService(installers *Installers, repo *accounts.Repository, secret string) *Service {
	return &Service{installers: installers, accounts: repo, links: newLinks(secret)}
}

// Download is an installer opened for sending; the caller closes File.
type Download struct {
	File      *os.File
	Installer Installer
	// Recorded is the SoftwareDownloaded append; zero when the download was
	// recorded earlier (through a link).
	Recorded eventstore.Result
}

// Link is a short-lived permission to fetch the installer.
type Link struct {
	Token     string
	ExpiresAt time.Time
	Installer Installer
	Recorded  eventstore.Result
}

// Start opens the installer for accountID and records SoftwareDownloaded
// with its version. The domain refuses an account without an active
// subscription (forbidden); no installer is unavailable.
func (s *Service) Start(ctx context.Context, accountID string, md eventstore.Metadata) (Download, error) {
	f, inst, err := s.installers.Open()
	if err != nil {
		return Download{}, unavailable(err)
	}
	res, err := s.record(ctx, accountID, inst, md)
	if err != nil {
		_ = f.Close()
		return Download{}, err
	}
	return Download{File: f, Installer: inst, Recorded: res}, nil
}

// Link records SoftwareDownloaded as Start does and returns a link token
// for accountID, valid for LinkTTL: the browser then fetches the file
// with it, and a refusal has been answered as JSON to a script, never shown
// to the seller as a raw page.
func (s *Service) Link(ctx context.Context, accountID string, md eventstore.Metadata) (Link, error) {
	inst, err := s.installers.Latest()
	if err != nil {
		return Link{}, unavailable(err)
	}
	res, err := s.record(ctx, accountID, inst, md)
	if err != nil {
		return Link{}, err
	}
	token, expires := s.links.issue(accountID, s.accounts.Now())
	return Link{Token: token, ExpiresAt: expires, Installer: inst, Recorded: res}, nil
}

// OpenLink opens the installer for a link token issued to accountID,
// recording nothing: Link did. A token that is forged, another account's or
// expired is forbidden.
func (s *Service) OpenLink(accountID, token string) (Download, error) {
	if err := s.links.check(token, accountID, s.accounts.Now()); err != nil {
		return Download{}, fmt.Errorf("%w: %w", domain.Errorf(domain.CodeForbidden, MsgLinkExpired), err)
	}
	f, inst, err := s.installers.Open()
	if err != nil {
		return Download{}, unavailable(err)
	}
	return Download{File: f, Installer: inst}, nil
}

// Latest describes the installer a download would send now.
func (s *Service) Latest() (Installer, error) {
	inst, err := s.installers.Latest()
	if err != nil {
		return Installer{}, unavailable(err)
	}
	return inst, nil
}

func (s *Service) record(ctx context.Context, accountID string, inst Installer, md eventstore.Metadata) (eventstore.Result, error) {
	return s.accounts.Change(ctx, accountID, eventstore.UpdateOptions{Metadata: md},
		func(_ context.Context, _ accounts.Work, a *domain.Account, now time.Time) (any, error) {
			return nil, a.RecordDownload(inst.Platform, inst.Version, now)
		})
}

// unavailable is the seller's answer to a missing or unusable installer;
// the cause stays in the chain for the log.
func unavailable(cause error) error {
	return fmt.Errorf("%w: %w", domain.Unavailable(0, MsgUnavailable), cause)
}
