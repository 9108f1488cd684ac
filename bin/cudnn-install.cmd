@echo off
rem Runs cudnn-tool's "install" command; every argument is passed through unchanged.
rem No variable that holds a path is expanded inside a parenthesised block: a folder such as
rem "C:\Program Files (x86)\..." would end the block at its ")". Hence the gotos.
setlocal
set "JAR=%~dp0..\target\cudnn-tool.jar"
if exist "%JAR%" goto jar_found
echo cudnn-install: error: "%JAR%" is missing; fix: build it with: mvn -q -B package -DskipTests 1>&2
exit /b 2
:jar_found
rem The usual order: %JAVA%, else %JAVA_HOME%\bin\java.exe, else java on PATH.
if defined JAVA goto java_found
set "JAVA=java"
if defined JAVA_HOME set "JAVA=%JAVA_HOME%\bin\java.exe"
:java_found
if not defined CUDNN_TOOL_JAVA_OPTS set "CUDNN_TOOL_JAVA_OPTS=-XX:+UseSerialGC -Xms16m -Xmx160m"
rem The class-data archive the build made, quoted: its folder may hold spaces. The install's own
rem (trained on an install) when it is there, else the tool's.
set CDS=
if exist "%~dp0..\target\cudnn-tool.jsa" set CDS="-XX:SharedArchiveFile=%~dp0..\target\cudnn-tool.jsa" -Xlog:cds=off -Xlog:cds+dynamic=off
if exist "%~dp0..\target\cudnn-install.jsa" set CDS="-XX:SharedArchiveFile=%~dp0..\target\cudnn-install.jsa" -Xlog:cds=off -Xlog:cds+dynamic=off
"%JAVA%" %CUDNN_TOOL_JAVA_OPTS% %CDS% -jar "%JAR%" install %*
exit /b %ERRORLEVEL%
