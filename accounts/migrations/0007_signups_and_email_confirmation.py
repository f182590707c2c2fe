"""Sign-ups recorded per address, and confirmed e-mail addresses.

Accounts made before this played their trial games without confirming: they keep doing so
(marked confirmed), as each had its address to itself until now.
"""

import django.db.models.deletion
import django.db.models.functions.text
from django.conf import settings
from django.db import migrations, models


def grandfather(apps, schema_editor):
    apps.get_model("accounts", "User").objects.update(email_confirmed=True)


class Migration(migrations.Migration):

    dependencies = [
        ('accounts', '0006_public_id_and_look_alike_names'),
        ('auth', '0012_alter_user_first_name_max_length'),
    ]

    operations = [
        migrations.CreateModel(
            name='SignUp',
            fields=[
                ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                ('client_ip', models.GenericIPAddressField()),
                ('client_network', models.CharField(max_length=64)),
                ('created_at', models.DateTimeField()),
            ],
            options={
                'ordering': ['-created_at'],
            },
        ),
        migrations.RemoveConstraint(
            model_name='user',
            name='user_email_unique_ci',
        ),
        migrations.AddField(
            model_name='user',
            name='confirmation_sent_at',
            field=models.DateTimeField(blank=True, editable=False, null=True),
        ),
        migrations.AddField(
            model_name='user',
            name='email_confirmed',
            field=models.BooleanField(default=False, verbose_name='e-mail address confirmed'),
        ),
        migrations.RunPython(grandfather, migrations.RunPython.noop, elidable=True),
        migrations.AddConstraint(
            model_name='user',
            constraint=models.UniqueConstraint(django.db.models.functions.text.Lower('email'), condition=models.Q(models.Q(('email', ''), _negated=True), ('email_confirmed', True)), name='user_confirmed_email_unique_ci'),
        ),
        migrations.AddField(
            model_name='signup',
            name='user',
            field=models.ForeignKey(null=True, on_delete=django.db.models.deletion.SET_NULL, related_name='+', to=settings.AUTH_USER_MODEL),
        ),
        migrations.AddIndex(
            model_name='signup',
            index=models.Index(fields=['client_network', 'created_at'], name='signup_network_time'),
        ),
    ]
