# -*- coding: utf-8 -*-
# Unit tests of the collection module's release parameter (#31 item 4), without Ansible installed:
# state=absent with release rolls back the newest active install of that version found in the journal,
# through the one launcher `cudnn rollback` when tool is `cudnn`.
import os
import unittest

import test_cudnn_module as base


class AbsentByRelease(base.AbsentMatchesTheArchivesBytes):
    def run_release(self, release, tool_name='cudnn'):
        open(os.path.join(self.tooldir, 'cudnn'), 'w').close()
        return self.run_absent(release=release, tool=os.path.join(self.tooldir, tool_name))

    def test_the_release_rolls_back_the_newest_install_of_that_version(self):
        m, result = self.run_release('9.5.1')
        self.assertEqual(['20261130T040000Z-0002'], self.rolled_back_ids(m))
        self.assertTrue(result['changed'])
        self.assertEqual([os.path.join(self.tooldir, 'cudnn'), 'rollback'], m.commands[-1][:2], 'the one launcher, its command')

    def test_a_release_never_installed_is_a_no_op(self):
        m, result = self.run_release('9.5.2')
        self.assertEqual([], self.rolled_back_ids(m))
        self.assertFalse(result['changed'])
        self.assertIn('cuDNN 9.5.2 is not installed here', result['msg'])

    def test_a_release_is_never_matched_by_a_longer_version_prefix(self):
        m, result = self.run_release('9.5')
        self.assertEqual([], self.rolled_back_ids(m), '9.5 is not 9.5.1')

    def test_the_older_launcher_is_still_used_beside_cudnn_install(self):
        m, result = self.run_release('9.5.1', tool_name='cudnn-install')
        self.assertEqual(os.path.join(self.tooldir, 'cudnn-rollback'), m.commands[-1][0])


if __name__ == '__main__':
    unittest.main()
