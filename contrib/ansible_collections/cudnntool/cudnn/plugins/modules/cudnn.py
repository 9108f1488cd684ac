#!/usr/bin/python
# -*- coding: utf-8 -*-
# Ansible module cudnntool.cudnn.cudnn: drives cudnn-tool (cudnn install|rollback|verify, or the older
# launchers cudnn-install, cudnn-rollback, cudnn-verify) on the managed node and reports their JSON the
# Ansible way (changed, msg, failed, findings).

from __future__ import absolute_import, division, print_function
__metaclass__ = type

DOCUMENTATION = r'''
---
module: cudnn
short_description: Install, roll back or verify NVIDIA cuDNN in a CUDA toolkit with cudnn-tool
description:
  - Runs C(cudnn install --json) on the node; the install is a transaction (every replaced file backed up).
  - The source is an archive on the node (I(archive)) or a release fetched for the node (I(release), C(--release)).
  - Idempotent - an archive whose files are all in place byte for byte reports C(changed=false) and writes nothing.
  - Check mode runs C(--dry-run); diff mode shows the plan (files added, replaced, moved out).
options:
  archive:
    description:
      - Path of the cuDNN archive on the node, exactly as NVIDIA names it.
      - For C(state=absent) its bytes say which install to roll back (their sha256); the file need not be there
        when I(sha256) or I(install_id) is given.
      - One of I(archive) and I(release) is required.
    type: path
  release:
    description:
      - The cuDNN release (M.m.p, for example C(9.5.1)) to fetch for this node and install (C(cudnn install --release)),
        checked against NVIDIA's size and sha256; with C(state=verified) the version expected, with C(state=absent)
        the version whose newest install is rolled back (found in the target's journal).
    type: str
  cuda:
    description: With I(release), the CUDA build (C(12) or C(12.4); default the toolkit's major).
    type: str
  mirror:
    description: With I(release), a mirror laid out as NVIDIA's redist folder, or a folder on the node holding the archive (C(--from)).
    type: str
  state:
    description:
      - C(present) installs it (nothing happens when its files are all in place already);
        C(absent) rolls back the newest recorded install made from that archive - the install whose recorded
        archive sha256 is the archive's (I(sha256), else the sha256 of the file at I(archive)), or the install
        I(install_id) - with C(cudnn-rollback --id); an install of the same version from other bytes is never
        touched, and an archive never installed here changes nothing. With I(release), the newest active install of
        that version. The tool refuses (exit 8) when later
        installs sit on top or files changed since, unless I(force); C(verified) runs C(cudnn-verify --expect)
        for its version and changes nothing; it fails on the tool's exit 1 (problems) and 9 (could not check) with the
        one-line reason.
    type: str
    choices: [present, absent, verified]
    default: present
  cuda_path:
    description: The CUDA toolkit folder (default - as cudnn-tool finds it - CUDA_PATH, CUDA_HOME, /usr/local/cuda*).
    type: path
  prefix:
    description: A stand-alone folder in the archive's own layout instead of a toolkit.
    type: path
  sha256:
    description: The archive's expected sha256 (wins over the tool's built-in catalogue of NVIDIA's checksums).
    type: str
  install_id:
    description: For C(state=absent), the history id of the install to roll back (C(cudnn-rollback --list) shows them),
      instead of finding it by the archive's sha256.
    type: str
  force:
    description: Pass C(--force) (platform, driver, toolkit-major and shadowing errors become warnings; rollback past changes).
    type: bool
    default: false
  no_probe:
    description: Do not load the installed library (C(--no-probe)); needed on machines without a GPU or driver.
    type: bool
    default: false
  add_to_path:
    description: Pass C(--add-to-path) to cudnn-install (puts the library folder on the search path).
    type: bool
    default: false
  tool:
    description: Path of the C(cudnn) launcher (its commands are used), or of the older C(cudnn-install) launcher
      (C(cudnn-rollback) and C(cudnn-verify) are taken from beside it). Default - C(cudnn) on the node's PATH
      or C(/usr/local/bin/cudnn), else C(cudnn-install) on the PATH.
    type: path
author: cudnn-tool
'''

EXAMPLES = r'''
- name: cuDNN 9.5.1 for CUDA 12, fetched for the node and installed into the toolkit
  cudnntool.cudnn.cudnn:
    release: 9.5.1
    cuda: '12'
    cuda_path: /usr/local/cuda-12.4

- name: Checks only, changes nothing (fails on problems or when the checks could not run)
  cudnntool.cudnn.cudnn:
    release: 9.5.1
    state: verified

- name: cuDNN 9.5.1 in the CUDA 12 toolkit, from an archive on the node
  cudnntool.cudnn.cudnn:
    archive: /var/cache/cudnn/cudnn-linux-x86_64-9.5.1.17_cuda12-archive.tar.xz
    cuda_path: /usr/local/cuda-12.4
    tool: /opt/cudnn-tool/bin/cudnn-install

- name: Prove it loads
  cudnntool.cudnn.cudnn:
    archive: /var/cache/cudnn/cudnn-linux-x86_64-9.5.1.17_cuda12-archive.tar.xz
    state: verified
'''

RETURN = r'''
changed:
  description: Whether the toolkit changed (or would, in check mode).
  type: bool
  returned: always
msg:
  description: The tool's summary, or its one-line error.
  type: str
  returned: always
exit_code:
  description: The tool's exit code (the README's table of exit codes).
  type: int
  returned: always
version:
  description: The archive's cuDNN version.
  type: str
  returned: when the archive name has one
install_id:
  description: The history id of the install made (or of the install rolled back).
  type: str
  returned: when there is one
findings:
  description: The tool's findings, each with id, severity, message and fix.
  type: list
  elements: dict
  returned: always
plan:
  description: The install plan, each step with source, destination and action (add, replace, same, remove).
  type: list
  elements: dict
  returned: when state=present
'''

import json
import os
import re

from ansible.module_utils.basic import AnsibleModule

# Where install.sh (as root) and the role put the launcher.
DEFAULT_CUDNN = '/usr/local/bin/cudnn'
RELEASE = re.compile(r'^\d+\.\d+\.\d+$')

VERSION_IN_NAME = re.compile(r'(?:-v|-)(\d+\.\d+\.\d+(?:\.\d+)?)(?:_cuda|-cuda|\.zip|\.tgz)')


def version_of(archive):
    m = VERSION_IN_NAME.search(os.path.basename(archive))
    return m.group(1) if m else None


def fail(module, result, msg, **extra):
    """Fails the task with the tool's one-line error (msg) and everything known so far."""
    result.update(extra)
    result['msg'] = msg
    module.fail_json(**result)


def launcher(module, name):
    """The command line's start for one of install, rollback, verify (name: cudnn-install, ...): the one launcher
    cudnn with the command, or the older launcher of that name beside tool (or on PATH)."""
    command = name.split('-', 1)[1]
    tool = module.params['tool']
    if not tool:
        tool = module.get_bin_path('cudnn') or (DEFAULT_CUDNN if os.path.exists(DEFAULT_CUDNN) else None)
    if tool and os.path.basename(tool) in ('cudnn', 'cudnn.cmd'):
        return [tool, command]
    install = tool or module.get_bin_path('cudnn-install', required=True)
    path = install if name == 'cudnn-install' else os.path.join(os.path.dirname(install), name)
    if not os.path.exists(path):
        module.fail_json(msg='%s not found (looked beside %s)' % (name, install), exit_code=2, findings=[], changed=False)
    return [path]


def target_args(module):
    args = []
    if module.params['cuda_path']:
        args += ['--cuda-path', module.params['cuda_path']]
    if module.params['prefix']:
        args += ['--prefix', module.params['prefix']]
    return args


def run_tool(module, cmd):
    """Runs a launcher with --json: (rc, document or None, the one-line error from stderr or '')."""
    rc, out, err = module.run_command(cmd)
    doc = None
    try:
        doc = json.loads(out) if out.strip() else None
    except ValueError:
        doc = None
    error_line = ''
    for line in err.splitlines():
        if ': error: ' in line:
            error_line = line.strip()
            break
    return rc, doc, error_line or err.strip()


def failure_message(doc, error_line):
    if error_line:
        return error_line
    if doc:
        firsts = [f for f in doc.get('findings', []) if f.get('severity') == 'error']
        summary = doc.get('summary') or ''
        if firsts:
            return '%s (%s: %s)' % (summary, firsts[0]['id'], firsts[0]['message'])
        return summary
    return 'the tool failed without output'


def plan_diff(doc):
    lines = []
    for step in (doc or {}).get('plan') or []:
        if step.get('action') == 'same':
            continue
        lines.append('%-8s %s' % (step['action'], step['destination']))
    return {'prepared': '\n'.join(lines) + ('\n' if lines else '')}


def present(module, result):
    if module.params['release']:
        cmd = launcher(module, 'cudnn-install') + ['--release', module.params['release'], '--json'] + target_args(module)
        if module.params['cuda']:
            cmd += ['--cuda', module.params['cuda']]
        if module.params['mirror']:
            cmd += ['--from', module.params['mirror']]
    else:
        cmd = launcher(module, 'cudnn-install') + ['--archive', module.params['archive'], '--json'] + target_args(module)
    if module.params['sha256']:
        cmd += ['--sha256', module.params['sha256']]
    if module.params['force']:
        cmd.append('--force')
    if module.params['no_probe']:
        cmd.append('--no-probe')
    if module.params['add_to_path']:
        cmd.append('--add-to-path')
    if module.check_mode:
        cmd.append('--dry-run')
    rc, doc, error_line = run_tool(module, cmd)
    doc = doc or {}
    result.update(exit_code=rc, findings=doc.get('findings', []), plan=doc.get('plan', []))
    if doc.get('installId'):
        result['install_id'] = doc['installId']
    if module._diff and doc.get('plan') is not None:
        result['diff'] = plan_diff(doc)
    if rc != 0:
        result['changed'] = bool(doc.get('changed', False))
        fail(module, result, failure_message(doc, error_line))
    result['changed'] = bool(doc.get('changed', True))
    result['msg'] = doc.get('summary', '')


def matching_installs(installs, sha256=None, install_id=None, version=None):
    """The active installs made from one archive: the one with that install id when given, else those whose
    recorded archive sha256 is the archive's. Never by version or name: two archives of one version (a repack,
    another CUDA variant) are two installs."""
    active = [e for e in installs or [] if e.get('state') == 'active']
    if install_id:
        return [e for e in active if e.get('id') == install_id]
    if version:
        # M.m.p names every build of it (9.5.1 is 9.5.1.17); a shorter or longer version matches itself only
        return [e for e in active if e.get('version') == version
                or (RELEASE.match(version) and '.'.join((e.get('version') or '').split('.')[:3]) == version)]
    if not sha256:
        return []
    want = sha256.strip().lower()
    return [e for e in active if (e.get('archiveSha256') or '').lower() == want]


def archive_sha256(module):
    """The archive's sha256: the sha256 parameter, else the file's on the node; None when neither is there."""
    if module.params['sha256']:
        return module.params['sha256'].strip().lower()
    archive = module.params['archive']
    if os.path.isfile(archive):
        return module.sha256(archive)
    return None


def absent(module, result):
    rollback = launcher(module, 'cudnn-rollback')
    install_id = module.params.get('install_id')
    release = None if install_id else module.params.get('release')
    sha256 = None if install_id or release else archive_sha256(module)
    name = os.path.basename(module.params['archive'] or '')
    if not install_id and not sha256 and not release:
        fail(module, result, 'cannot tell which install %s made: %s is not on the node; pass its sha256 (or install_id)'
             % (name, module.params['archive']), exit_code=2)
    rc, doc, error_line = run_tool(module, rollback + ['--list', '--json'] + target_args(module))
    if rc != 0:
        result['exit_code'] = rc
        fail(module, result, failure_message(doc, error_line))
    mine = matching_installs((doc or {}).get('installs', []), sha256, install_id, release)
    if not mine:
        what = ('install %s' % install_id if install_id else 'cuDNN %s' % release if release
                else '%s (sha256 %s)' % (name, sha256))
        result.update(changed=False, exit_code=0, msg='%s is not installed here (nothing to roll back)' % what)
        return
    newest = sorted(mine, key=lambda e: e.get('id', ''))[-1]
    cmd = rollback + ['--id', newest['id'], '--json'] + target_args(module)
    if module.params['force']:
        cmd.append('--force')
    if module.check_mode:
        cmd.append('--dry-run')
    rc, doc, error_line = run_tool(module, cmd)
    doc = doc or {}
    result.update(exit_code=rc, findings=doc.get('findings', []), install_id=newest['id'])
    if module._diff:
        result['diff'] = {'prepared': ''.join('%s %s\n' % (s.get('type'), s.get('to')) for s in doc.get('steps') or [])}
    if rc != 0:
        fail(module, result, failure_message(doc, error_line))
    result['changed'] = bool(doc.get('changed')) if not module.check_mode else True
    result['msg'] = doc.get('summary', '')


def verify_failure(doc, error_line, version, rc):
    """verify's one-line reason: its first error (exit 1), or what it could not check (exit 9, verdict unknown)."""
    message = failure_message(doc, error_line)
    if message:
        return message
    if rc == 9 or doc.get('verdict') == 'unknown':
        unchecked = [f for f in doc.get('findings', []) if f.get('message', '').startswith('could not check')]
        return 'could not check cuDNN %s (exit 9)%s' % (
            version, ': %s: %s' % (unchecked[0]['id'], unchecked[0]['message']) if unchecked else '')
    return 'cuDNN %s is not installed as expected' % version


def verified(module, result):
    version = result.get('version')
    if not version:
        fail(module, result, 'cannot read a cuDNN version from the archive name %s' % module.params['archive'], exit_code=2)
    cmd = launcher(module, 'cudnn-verify') + ['--expect', version, '--json'] + target_args(module)
    if module.params['no_probe']:
        cmd.append('--no-probe')
    rc, doc, error_line = run_tool(module, cmd)
    doc = doc or {}
    result.update(exit_code=rc, findings=doc.get('findings', []), changed=False)
    if rc != 0:
        fail(module, result, verify_failure(doc, error_line, version, rc))
    ok = [f for f in result['findings'] if f.get('id') == 'cudnn.ok']
    result['msg'] = ok[0]['message'] if ok else 'cuDNN %s verified' % version


def main():
    module = AnsibleModule(
        argument_spec=dict(
            archive=dict(type='path'),
            release=dict(type='str'),
            cuda=dict(type='str'),
            mirror=dict(type='str'),
            state=dict(type='str', default='present', choices=['present', 'absent', 'verified']),
            cuda_path=dict(type='path'),
            prefix=dict(type='path'),
            sha256=dict(type='str', no_log=False),
            install_id=dict(type='str'),
            force=dict(type='bool', default=False),
            no_probe=dict(type='bool', default=False),
            add_to_path=dict(type='bool', default=False),
            tool=dict(type='path'),
        ),
        mutually_exclusive=[['cuda_path', 'prefix'], ['archive', 'release']],
        required_one_of=[['archive', 'release']],
        supports_check_mode=True,
    )
    result = dict(changed=False, msg='', findings=[], exit_code=0)
    release = module.params['release']
    if release is not None and not RELEASE.match(release):
        module.fail_json(msg='release %r is not M.m.p (for example 9.5.1)' % release, exit_code=2, findings=[], changed=False)
    version = release or version_of(module.params['archive'] or '')
    if version:
        result['version'] = version
    state = module.params['state']
    if state == 'present':
        present(module, result)
    elif state == 'absent':
        absent(module, result)
    else:
        verified(module, result)
    module.exit_json(**result)


if __name__ == '__main__':
    main()
