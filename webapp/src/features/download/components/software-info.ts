/**
 * Spec section 9: the desktop software's requirements. Its version, size and
 * checksum are the served file's, from /api/config (InstallerVersion).
 */
export const WINDOWS_SOFTWARE = {
  requirements: ['Windows 10 or 11 (64-bit)', '4 GB RAM (8 GB recommended)', '200 MB free disk space'],
};

export const MAC_REQUIREMENT = 'macOS 11 or later';

export const RELEASE_NOTES = [
  'Better pricing algorithm',
  'Improved VERO check system',
  'Faster listing creation',
];
