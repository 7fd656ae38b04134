; Inno Setup 6 script for the Windows installer (built by .github/workflows/installers.yml).
;   python -m PyInstaller --noconfirm --distpath dist --workpath build/pyinstaller packaging/dpdesk.spec
;   iscc /DAppVersion=0.1.0 packaging\windows\dpdesk.iss     -> dist\dpdesk-0.1.0-setup.exe
; Installs per user by default (no administrator rights needed), per machine if chosen;
; adds a Start-menu entry and opens .dpdesk projects on a double-click.
#ifndef AppVersion
  #define AppVersion "0.1.0"
#endif

[Setup]
AppId={{5B0F3C2A-8E41-4D7B-9A63-2F1C7D9E4B18}
AppName=dpdesk
AppVersion={#AppVersion}
AppPublisher=dpdesk developers
DefaultDirName={autopf}\dpdesk
DisableProgramGroupPage=yes
PrivilegesRequired=lowest
PrivilegesRequiredOverridesAllowed=dialog
ArchitecturesAllowed=x64compatible
ArchitecturesInstallIn64BitMode=x64compatible
ChangesAssociations=yes
OutputDir=..\..\dist
OutputBaseFilename=dpdesk-{#AppVersion}-setup
SetupIconFile=..\..\build\icons\dpdesk.ico
UninstallDisplayIcon={app}\dpdesk.exe
Compression=lzma2
SolidCompression=yes
WizardStyle=modern

[Tasks]
Name: "desktopicon"; Description: "{cm:CreateDesktopIcon}"; GroupDescription: "{cm:AdditionalIcons}"; Flags: unchecked

[Files]
Source: "..\..\dist\dpdesk\*"; DestDir: "{app}"; Flags: ignoreversion recursesubdirs createallsubdirs

[Icons]
Name: "{autoprograms}\dpdesk"; Filename: "{app}\dpdesk.exe"
Name: "{autodesktop}\dpdesk"; Filename: "{app}\dpdesk.exe"; Tasks: desktopicon

[Registry]
; The file association of the Inno Setup FAQ: a ProgID, its icon and open command, and .dpdesk pointing to it.
Root: HKA; Subkey: "Software\Classes\.dpdesk"; ValueType: string; ValueName: ""; ValueData: "dpdesk.project"; Flags: uninsdeletevalue
Root: HKA; Subkey: "Software\Classes\.dpdesk\OpenWithProgids"; ValueType: string; ValueName: "dpdesk.project"; ValueData: ""; Flags: uninsdeletevalue
Root: HKA; Subkey: "Software\Classes\dpdesk.project"; ValueType: string; ValueName: ""; ValueData: "dpdesk project"; Flags: uninsdeletekey
Root: HKA; Subkey: "Software\Classes\dpdesk.project\DefaultIcon"; ValueType: string; ValueName: ""; ValueData: "{app}\dpdesk.exe,0"
Root: HKA; Subkey: "Software\Classes\dpdesk.project\shell\open\command"; ValueType: string; ValueName: ""; ValueData: """{app}\dpdesk.exe"" ""%1"""
Root: HKA; Subkey: "Software\Classes\Applications\dpdesk.exe\SupportedTypes"; ValueType: string; ValueName: ".dpdesk"; ValueData: ""

[Run]
Filename: "{app}\dpdesk.exe"; Description: "{cm:LaunchProgram,dpdesk}"; Flags: nowait postinstall skipifsilent
