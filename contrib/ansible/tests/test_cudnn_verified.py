# -*- coding: utf-8 -*-
# Unit tests of state=verified (settled "Verdicts and exit codes"), without Ansible installed: the module fails
# on verify's exit 1 and exit 9 with the one-line reason, and passes on exit 0.
import os
import unittest

import test_cudnn_module as base

NOT_CHECKED = dict(id='probe.not-checked', severity='warn',
                   message='could not check whether cuDNN loads: the probe process did not answer within 30 s', fix='run it again')


class Verified(base.AbsentMatchesTheArchivesBytes):
    def run_verified(self, rc, doc):
        m = base.FakeModule(dict(state='verified', archive=self.a, tool=os.path.join(self.tooldir, 'cudnn-install')),
                            {'--expect': (rc, doc)})
        m.tooldir = self.tooldir
        result = dict(changed=False, msg='', findings=[], exit_code=0, version=base.VERSION)
        base.cudnn.verified(m, result)
        return m, result

    def test_ok_passes_with_the_cudnn_ok_line(self):
        ok = dict(id='cudnn.ok', severity='info', message='cuDNN 9.5.1 (90501) in /usr/local/cuda/lib64', fix='')
        m, result = self.run_verified(0, dict(exitCode=0, verdict='ok', findings=[ok]))
        self.assertEqual(ok['message'], result['msg'])
        self.assertFalse(result['changed'])

    def test_exit_9_fails_saying_what_could_not_be_checked(self):
        with self.assertRaises(base.Failed) as failed:
            self.run_verified(9, dict(exitCode=9, verdict='unknown', findings=[NOT_CHECKED]))
        msg = failed.exception.result['msg']
        self.assertIn('could not check cuDNN %s (exit 9)' % base.VERSION, msg)
        self.assertIn('probe.not-checked', msg)
        self.assertEqual(9, failed.exception.result['exit_code'])

    def test_exit_1_fails_with_the_first_error(self):
        error = dict(id='cudnn.expect-mismatch', severity='error', message='cuDNN 9.1.0 is installed, not 9.5.1', fix='install it')
        with self.assertRaises(base.Failed) as failed:
            self.run_verified(1, dict(exitCode=1, verdict='problems', findings=[NOT_CHECKED, error]))
        self.assertIn('cudnn.expect-mismatch', failed.exception.result['msg'])
        self.assertEqual(1, failed.exception.result['exit_code'])


if __name__ == '__main__':
    unittest.main()
