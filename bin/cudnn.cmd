@echo off
rem Runs cudnn-tool: "cudnn install ...", "cudnn verify ...", "cudnn rollback ...", "cudnn inspect ...",
rem "cudnn releases ...", "cudnn completion bash"; every argument is passed through unchanged. Without
rem one, it lists the commands.
rem No variable that holds a path is expanded inside a parenthesised block: a folder such as
rem "C:\Program Files (x86)\..." would end the block at its ")". Hence the gotos.
setlocal
set "JAR=%~dp0..\target\cudnn-tool.jar"
if exist "%JAR%" goto jar_found
rem In the self-contained image the jar lies in lib\, next to runtime\.
if not exist "%~dp0..\lib\cudnn-tool.jar" goto jar_missing
set "JAR=%~dp0..\lib\cudnn-tool.jar"
goto jar_found
:jar_missing
echo cudnn: error: "%JAR%" is missing; fix: build it with: mvn -q -B package -DskipTests 1>&2
exit /b 2
:jar_found
rem Which java.exe: the image's own runtime\bin\java.exe next to bin\ (no Java need be installed),
rem else %JAVA%, else %JAVA_HOME%\bin\java.exe, else the first java.exe in a PATH folder
rem that is absolute. A bare "java" is never run: cmd.exe looks in the current folder first, where a
rem planted java.exe or java.cmd would run as the user (or Administrator); nor is a relative PATH entry.
if not exist "%~dp0..\runtime\bin\java.exe" goto java_env
set "JAVA=%~dp0..\runtime\bin\java.exe"
goto java_found
:java_env
if defined JAVA goto java_found
if not defined JAVA_HOME goto java_search
set "JAVA=%JAVA_HOME%\bin\java.exe"
goto java_found
:java_search
call :find_java
if defined JAVA goto java_found
echo cudnn: error: no java.exe in JAVA_HOME or in a PATH folder; fix: install Java 17 or later and set JAVA_HOME 1>&2
exit /b 2
:java_found
rem An install or inspect reads gigabytes (the full compiler pays); the other commands are over in a
rem third of a second, where the quick C1 compiler alone serves best.
if defined CUDNN_TOOL_JAVA_OPTS goto opts_set
set "CUDNN_TOOL_JAVA_OPTS=-XX:+UseSerialGC -Xms16m -Xmx160m -XX:TieredStopAtLevel=1 -XX:CICompilerCount=1"
if /i "%~1"=="install" set "CUDNN_TOOL_JAVA_OPTS=-XX:+UseSerialGC -Xms16m -Xmx160m"
if /i "%~1"=="inspect" set "CUDNN_TOOL_JAVA_OPTS=-XX:+UseSerialGC -Xms16m -Xmx160m"
:opts_set
rem The class-data archive the build made, quoted: its folder may hold spaces.
set CDS=
if exist "%~dp0..\target\cudnn-tool.jsa" set CDS="-XX:SharedArchiveFile=%~dp0..\target\cudnn-tool.jsa" -Xlog:cds=off -Xlog:cds+dynamic=off
"%JAVA%" %CUDNN_TOOL_JAVA_OPTS% %CDS% -jar "%JAR%" %*
exit /b %ERRORLEVEL%

rem ---- :find_java sets JAVA to java.exe in the first absolute PATH folder that holds one.
:find_java
set "JAVA="
if not defined PATH goto :eof
set "REST=%PATH:"=%"
:find_next
if not defined REST goto :eof
set "ENTRY="
set "NEXT="
rem A block, not "&": Wine's cmd.exe expands %%B after "&" wrongly, and only for-variables are inside.
for /f "tokens=1* delims=;" %%A in ("%REST%") do (
  set "ENTRY=%%A"
  set "NEXT=%%B"
)
set "REST=%NEXT%"
if not defined ENTRY goto :eof
rem Only "X:\..." or "\\server\...": a relative entry (".", "bin") names a folder under the current one.
if "%ENTRY:~1,2%"==":\" goto find_absolute
if "%ENTRY:~0,2%"=="\\" goto find_absolute
goto find_next
:find_absolute
for %%D in ("%ENTRY%\.") do set "DIR=%%~fD"
if not exist "%DIR%\java.exe" goto find_next
set "JAVA=%DIR%\java.exe"
goto :eof
