# Installs cudnn-tool's self-contained Windows image (its own Java runtime: no Java needed):
#   irm https://github.com/cudnn-tool/cudnn-tool/releases/latest/download/install.ps1 | iex
#   & ([scriptblock]::Create((irm …/install.ps1))) -Version 1.0.0     (pin a release)
#   & ([scriptblock]::Create((irm …/install.ps1))) -Uninstall         (remove what this script made)
# The same steps as install.sh: SHA256SUMS from the release (or CUDNN_TOOL_DIST_URL), the sha256
# checked before unpacking, a versioned folder in %LOCALAPPDATA%\cudnn-tool\<version>, a `current`
# junction switched to it, and current\bin put on the user's PATH (the user's Environment key), as
# rustup does. Not exercised by CI here (no PowerShell on the Linux machine that tests install.sh).
param([string]$Version = '', [switch]$Uninstall)
$ErrorActionPreference = 'Stop'

# The repository; scripts/release-assets.sh writes the pom's cudnn.repo here.
$repo = 'github.com/cudnn-tool/cudnn-tool'

function Fail($what, $fix) { Write-Error "cudnn-tool install: error: ${what}; fix: $fix"; exit 1 }

$Version = $Version -replace '^v', ''
if ($Version -and $Version -notmatch '^[0-9A-Za-z.-]+$') { Fail "-Version $Version is not a version" 'pass one such as 1.0.0' }
$home_ = if ($env:CUDNN_TOOL_HOME) { $env:CUDNN_TOOL_HOME } else { Join-Path $env:LOCALAPPDATA 'cudnn-tool' }
$record = Join-Path $home_ '.install-ps1'
$current = Join-Path $home_ 'current'
$binDir = Join-Path $current 'bin'

function Set-UserPath([string[]]$entries) {
  [Environment]::SetEnvironmentVariable('Path', ($entries -join ';'), 'User')
}
$userPath = @(([Environment]::GetEnvironmentVariable('Path', 'User') -split ';') | Where-Object { $_ })

if ($Uninstall) {
  if (-not (Test-Path $record)) { Fail "nothing to uninstall: $record is missing" 'remove by hand what another tool installed' }
  Set-UserPath ($userPath | Where-Object { $_ -ne $binDir })
  if (Test-Path $current) { (Get-Item $current).Delete() }
  foreach ($v in Get-Content $record) {
    if ($v -match '^[0-9A-Za-z.-]+$' -and (Test-Path (Join-Path $home_ $v))) { Remove-Item -Recurse -Force (Join-Path $home_ $v) }
  }
  Remove-Item $record
  if (-not (Get-ChildItem $home_ -Force)) { Remove-Item $home_ }
  Write-Output 'cudnn-tool install: uninstalled'
  exit 0
}

if ($env:PROCESSOR_ARCHITECTURE -ne 'AMD64') { Fail "no image for the CPU $env:PROCESSOR_ARCHITECTURE" "build from source (see https://$repo)" }
$base = if ($env:CUDNN_TOOL_DIST_URL) { $env:CUDNN_TOOL_DIST_URL.TrimEnd('/') }
        elseif ($Version) { "https://$repo/releases/download/v$Version" }
        else { "https://$repo/releases/latest/download" }

New-Item -ItemType Directory -Force $home_ | Out-Null
$tmp = Join-Path $home_ (".download-" + [guid]::NewGuid().ToString('N').Substring(0, 8))
New-Item -ItemType Directory $tmp | Out-Null
try {
  Invoke-WebRequest -UseBasicParsing "$base/SHA256SUMS" -OutFile "$tmp\SHA256SUMS"
  $rows = foreach ($l in Get-Content "$tmp\SHA256SUMS") {
    if ($l -match '^([0-9a-fA-F]{64}) +\*?(cudnn-tool-([0-9A-Za-z.-]+)-windows-x86_64\.zip)$' -and (-not $Version -or $Matches[3] -eq $Version)) {
      [pscustomobject]@{ Sum = $Matches[1].ToLower(); Name = $Matches[2]; V = $Matches[3] }
    }
  }
  $row = $rows | Sort-Object { try { [version]$_.V } catch { [version]'0.0' } } | Select-Object -Last 1
  if (-not $row) { Fail "$base/SHA256SUMS lists no cudnn-tool-$(if ($Version) { $Version } else { '*' })-windows-x86_64.zip" 'pick a release that has a Windows image' }
  Invoke-WebRequest -UseBasicParsing "$base/$($row.Name)" -OutFile "$tmp\$($row.Name)"
  $got = (Get-FileHash -Algorithm SHA256 "$tmp\$($row.Name)").Hash.ToLower()
  if ($got -ne $row.Sum) { Fail "$($row.Name) has sha256 $got, SHA256SUMS says $($row.Sum): nothing was unpacked" 'download again' }
  Expand-Archive "$tmp\$($row.Name)" -DestinationPath "$tmp\unpacked"
  $img = "$tmp\unpacked\cudnn-tool-$($row.V)"
  & "$img\bin\cudnn.cmd" --version | Out-Null
  if ($LASTEXITCODE -ne 0) { Fail 'the unpacked image does not start' 'report it with your Windows version' }
  $dest = Join-Path $home_ $row.V
  if (Test-Path $dest) { Remove-Item -Recurse -Force $dest }
  Move-Item $img $dest
  if (-not ((Test-Path $record) -and (Get-Content $record) -contains $row.V)) { Add-Content $record $row.V }
  if (Test-Path $current) { (Get-Item $current).Delete() }
  New-Item -ItemType Junction -Path $current -Target $dest | Out-Null
  if ($userPath -notcontains $binDir) { Set-UserPath ($userPath + $binDir) }
  Write-Output "cudnn-tool install: cudnn-tool $($row.V) is in $dest ($current); $binDir is on your PATH"
  Write-Output 'cudnn-tool install: next: open a new terminal, then: cudnn verify'
} finally {
  Remove-Item -Recurse -Force $tmp -ErrorAction SilentlyContinue
}
