# -*- coding: utf-8 -*-
# Unit tests of the cudnn module's state=absent matching (issue 18 D20), without Ansible installed:
#   python3 -m unittest discover -s contrib/ansible/tests -p 'test_*.py'
# The module is loaded from library/cudnn.py with a stand-in for ansible.module_utils.basic, and the
# launchers are faked through run_command: what matters is which `cudnn-rollback --id` it runs.

import hashlib
import importlib.util
import json
import os
import sys
import tempfile
import types
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
LIBRARY = os.path.join(HERE, '..', 'library', 'cudnn.py')


def load_module():
    if 'ansible.module_utils.basic' not in sys.modules:
        basic = types.ModuleType('ansible.module_utils.basic')
        basic.AnsibleModule = object  # only main() builds one; these tests never call it
        for name in ('ansible', 'ansible.module_utils'):
            sys.modules.setdefault(name, types.ModuleType(name))
        sys.modules['ansible.module_utils.basic'] = basic
    spec = importlib.util.spec_from_file_location('cudnn_module_under_test', LIBRARY)
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


cudnn = load_module()


class Failed(Exception):
    def __init__(self, result):
        Exception.__init__(self, result.get('msg'))
        self.result = result


class FakeModule(object):
    """Enough of AnsibleModule for absent(): params, check mode, run_command answered from a table."""

    def __init__(self, params, answers, check_mode=False):
        self.params = dict(archive=None, state='absent', cuda_path='/usr/local/cuda-12.4', prefix=None,
                           sha256=None, install_id=None, force=False, no_probe=False, add_to_path=False,
                           tool=None)
        self.params.update(params)
        self.answers = answers
        self.check_mode = check_mode
        self._diff = False
        self.commands = []

    def run_command(self, cmd):
        self.commands.append(list(cmd))
        for key, (rc, doc) in self.answers.items():
            if key in cmd:
                return rc, json.dumps(doc), ''
        raise AssertionError('unexpected command %r' % (cmd,))

    def fail_json(self, **result):
        raise Failed(result)

    def get_bin_path(self, name, required=False):
        return os.path.join(self.tooldir, name)

    def sha256(self, path):
        with open(path, 'rb') as f:
            return hashlib.sha256(f.read()).hexdigest()


VERSION = '9.5.1.17'
NAME = 'cudnn-linux-x86_64-%s_cuda12-archive.tar.xz' % VERSION


class AbsentMatchesTheArchivesBytes(unittest.TestCase):
    def setUp(self):
        self.dir = tempfile.mkdtemp()
        self.tooldir = os.path.join(self.dir, 'bin')
        os.makedirs(self.tooldir)
        for launcher in ('cudnn-install', 'cudnn-rollback', 'cudnn-verify'):
            open(os.path.join(self.tooldir, launcher), 'w').close()
        # two archives of one version under NVIDIA's name (the genuine one and a repack), and a third never installed
        self.a = self.archive('a', b'archive A: NVIDIA\'s bytes')
        self.b = self.archive('b', b'archive B: a repack of the same version')
        self.c = self.archive('c', b'archive C: never installed here')
        self.sha = {k: hashlib.sha256(open(p, 'rb').read()).hexdigest() for k, p in
                    (('a', self.a), ('b', self.b), ('c', self.c))}
        # A installed first, then B (same version, same name) on top of it
        self.installs = [
            dict(id='20261130T030000Z-0001', version=VERSION, archive=NAME, archiveSha256=self.sha['a'],
                 state='active', newest=False),
            dict(id='20261130T040000Z-0002', version=VERSION, archive=NAME, archiveSha256=self.sha['b'],
                 state='active', newest=True),
        ]

    def tearDown(self):
        import shutil
        shutil.rmtree(self.dir, ignore_errors=True)

    def archive(self, sub, content):
        d = os.path.join(self.dir, sub)
        os.makedirs(d)
        p = os.path.join(d, NAME)
        with open(p, 'wb') as f:
            f.write(content)
        return p

    def run_absent(self, check_mode=False, **params):
        params.setdefault('tool', os.path.join(self.tooldir, 'cudnn-install'))
        rolled = dict(summary='rolled back', changed=True, findings=[], steps=[])
        m = FakeModule(params, {'--list': (0, dict(installs=self.installs)), '--id': (0, rolled)}, check_mode)
        m.tooldir = self.tooldir
        result = dict(changed=False, msg='', findings=[], exit_code=0, version=VERSION)
        cudnn.absent(m, result)
        return m, result

    def rolled_back_ids(self, m):
        return [c[c.index('--id') + 1] for c in m.commands if '--id' in c]

    def test_the_file_of_archive_a_rolls_back_as_install_only(self):
        m, result = self.run_absent(archive=self.a)
        self.assertEqual(['20261130T030000Z-0001'], self.rolled_back_ids(m))
        self.assertTrue(result['changed'])
        self.assertEqual('20261130T030000Z-0001', result['install_id'])

    def test_the_sha256_of_archive_a_rolls_back_as_install_only_without_the_file(self):
        m, result = self.run_absent(archive='/var/cache/cudnn/' + NAME, sha256=self.sha['a'].upper())
        self.assertEqual(['20261130T030000Z-0001'], self.rolled_back_ids(m))

    def test_archive_b_rolls_back_bs_install_only(self):
        m, result = self.run_absent(archive=self.b)
        self.assertEqual(['20261130T040000Z-0002'], self.rolled_back_ids(m))

    def test_an_archive_never_installed_is_a_no_op_though_its_name_and_version_match(self):
        m, result = self.run_absent(archive=self.c)
        self.assertEqual([], self.rolled_back_ids(m), 'no rollback is run')
        self.assertFalse(result['changed'])
        self.assertEqual(0, result['exit_code'])
        self.assertIn('nothing to roll back', result['msg'])

    def test_an_archive_never_installed_is_a_no_op_in_check_mode_too(self):
        m, result = self.run_absent(check_mode=True, archive=self.c)
        self.assertEqual([], self.rolled_back_ids(m))
        self.assertFalse(result['changed'])

    def test_an_install_id_picks_that_install(self):
        m, result = self.run_absent(archive='/nowhere/' + NAME, install_id='20261130T040000Z-0002')
        self.assertEqual(['20261130T040000Z-0002'], self.rolled_back_ids(m))
        m, result = self.run_absent(archive='/nowhere/' + NAME, install_id='20261130T050000Z-0009')
        self.assertEqual([], self.rolled_back_ids(m))
        self.assertFalse(result['changed'])

    def test_without_the_file_a_sha256_or_an_id_it_fails_and_rolls_nothing_back(self):
        with self.assertRaises(Failed) as e:
            self.run_absent(archive='/nowhere/' + NAME)
        self.assertIn('sha256', e.exception.result['msg'])
        self.assertEqual(2, e.exception.result['exit_code'])

    def test_records_without_an_archive_sha256_never_match(self):
        for e in self.installs:
            del e['archiveSha256']
        m, result = self.run_absent(archive=self.a)
        self.assertEqual([], self.rolled_back_ids(m))
        self.assertFalse(result['changed'])

    def test_matching_installs_ignores_unfinished_and_damaged_entries(self):
        installs = self.installs + [dict(id='x', state='damaged'), dict(id='y', state='unfinished install',
                                                                          archiveSha256=self.sha['a'])]
        self.assertEqual(['20261130T030000Z-0001'],
                         [e['id'] for e in cudnn.matching_installs(installs, self.sha['a'])])
        self.assertEqual([], cudnn.matching_installs(installs, None))


if __name__ == '__main__':
    unittest.main()
