@echo off
rem Runs cudnn-tool's "verify" command; every argument is passed through unchanged.
setlocal
set "JAR=%~dp0..\target\cudnn-tool.jar"
if not exist "%JAR%" (
  echo cudnn-verify: error: %JAR% is missing; fix: build it with: mvn -q -B package -DskipTests 1>&2
  exit /b 2
)
if "%JAVA%"=="" set "JAVA=java"
if "%CUDNN_TOOL_JAVA_OPTS%"=="" set "CUDNN_TOOL_JAVA_OPTS=-XX:+UseSerialGC -Xms16m -Xmx160m -XX:TieredStopAtLevel=1 -XX:CICompilerCount=1"
if exist "%~dp0..\target\cudnn-tool.jsa" set "CUDNN_TOOL_JAVA_OPTS=%CUDNN_TOOL_JAVA_OPTS% -XX:SharedArchiveFile=%~dp0..\target\cudnn-tool.jsa -Xlog:cds=off -Xlog:cds+dynamic=off"
"%JAVA%" %CUDNN_TOOL_JAVA_OPTS% -jar "%JAR%" verify %*
exit /b %ERRORLEVEL%
