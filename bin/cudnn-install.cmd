@echo off
rem Runs cudnn-tool's "install" command; every argument is passed through unchanged.
setlocal
set "JAR=%~dp0..\target\cudnn-tool.jar"
if not exist "%JAR%" (
  echo cudnn-install: error: %JAR% is missing; fix: build it with: mvn -q -B package -DskipTests 1>&2
  exit /b 2
)
if "%JAVA%"=="" set "JAVA=java"
"%JAVA%" -jar "%JAR%" install %*
exit /b %ERRORLEVEL%
