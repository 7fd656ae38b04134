# Print the path of Inno Setup's compiler (ISCC.exe), found at run time: PATH first, then the
# install location Inno Setup records in the registry (per machine or per user, any version),
# then the usual folders. Exits 1 with a message if there is none.
#   $iscc = & packaging\windows\find_iscc.ps1
$ErrorActionPreference = 'Stop'
$cmd = Get-Command ISCC.exe -ErrorAction SilentlyContinue
if ($cmd) { $cmd.Source; exit 0 }
$keys = @('HKLM:\SOFTWARE\WOW6432Node\Microsoft\Windows\CurrentVersion\Uninstall\Inno Setup *',
          'HKLM:\SOFTWARE\Microsoft\Windows\CurrentVersion\Uninstall\Inno Setup *',
          'HKCU:\SOFTWARE\Microsoft\Windows\CurrentVersion\Uninstall\Inno Setup *')
foreach ($key in $keys) {
  foreach ($entry in (Get-ItemProperty $key -ErrorAction SilentlyContinue)) {
    if ($entry.InstallLocation) {
      $candidate = Join-Path $entry.InstallLocation 'ISCC.exe'
      if (Test-Path $candidate) { $candidate; exit 0 }
    }
  }
}
$roots = @(${env:ProgramFiles(x86)}, $env:ProgramFiles, (Join-Path $env:LOCALAPPDATA 'Programs')) | Where-Object { $_ }
foreach ($root in $roots) {
  $found = Get-ChildItem -Path $root -Filter ISCC.exe -Recurse -Depth 2 -ErrorAction SilentlyContinue | Select-Object -First 1
  if ($found) { $found.FullName; exit 0 }
}
Write-Error "ISCC.exe (Inno Setup 6) not found on PATH, in the registry or under Program Files: choco install innosetup"
exit 1
